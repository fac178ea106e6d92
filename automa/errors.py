"""One error hierarchy. Every message is one line that names the input, the record and the field."""

from __future__ import annotations


class AutomaError(Exception):
    """Base of every error the CLI turns into one clear line and a non-zero exit."""

    exit_code = 1


class DataError(AutomaError):
    """A rules data file (shipped or the user's) is wrong."""

    exit_code = 3

    def __init__(self, file: str, record: str, field: str, problem: str) -> None:
        self.file, self.record, self.field, self.problem = file, record, field, problem
        parts = [f"[{record}]"] if record else []
        if field:
            parts.append(field)
        where = f"{file}: {' '.join(parts)}" if parts else file
        super().__init__(f"{where}: {problem}")


class ScenarioError(DataError):
    """A scenario file is wrong (same shape of message as DataError)."""

    exit_code = 2


class RulesError(AutomaError):
    """The table state asks for something the rules cannot do (a scripted token not in the bag)."""

    exit_code = 4


class InputError(AutomaError):
    """Something typed on the command line or at a prompt is wrong."""

    exit_code = 2
