"""The one place user strings (piece ids, names, titles, notes) become SVG or HTML text.

`esc` is safe both as element text and inside a double- or single-quoted attribute, in XML and
HTML alike; characters XML cannot carry at all (control codes, lone surrogates) become U+FFFD.
`script_json` embeds data in an HTML `<script type="application/json">` block that no string
can close or comment out.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")
_SCRIPT_UNSAFE = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
                  "\u2028": "\\u2028", "\u2029": "\\u2029"}


def esc(value: object) -> str:
    """Text for an SVG/HTML element or quoted attribute."""
    return escape(_NOT_XML.sub("\ufffd", str(value)), quote=True)


def script_json(data: Any) -> str:
    """JSON whose text holds no `<`, `>` or `&`: `</script>` or `<!--` in a string stay data."""
    text = json.dumps(data, ensure_ascii=False)
    text = _NOT_XML.sub("\ufffd", text)
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_UNSAFE[m[0]], text)
