"""Names of places in the code, as the PMPI wrappers of bench/ranks/ write them ("file+offset",
a return address within a loaded file): the function there (addr2line), else the file."""
import subprocess

_names = {}


def function_at(place):
    if place == "?":
        return "?"
    if place not in _names:
        file, offset = place.rsplit("+", 1)
        lines = subprocess.run(["addr2line", "-f", "-C", "-e", file, hex(int(offset, 16) - 1)],
                               capture_output=True, text=True).stdout.split("\n")
        function = lines[0].split("(")[0] if lines and lines[0] not in ("", "??") else file.rsplit("/", 1)[-1]
        _names[place] = function
    return _names[place]
