"""Positions from a phone photo of the mat (the optional extra `photo`: OpenCV, Pillow, SciPy).

Nothing here is imported by a battle's commands: only `automa capture`, `automa markers`,
`automa calibrate --photo` and the board's Photo button load it, so start-up stays as it is."""
