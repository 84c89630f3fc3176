#!/usr/bin/env python3
"""Whether two `trackctl replay --json` outputs agree: the same keys, lists, strings and counts, and distances
(keys ending in `_m`) within 1 mm of each other. Prints each number that differs and by how much; exits 0 when
they agree within that, 1 when not, 2 when a file is not JSON. Used by scripts/compare-arm64 (amd64 against
arm64: floating-point contraction can change the last digits of a sum)."""
import json
import sys

TOLERANCE_M = 0.001


def walk(a, b, path, notes, failures):
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            failures.append(f"{path or '.'}: keys {sorted(a.keys() ^ b.keys())} in one only")
        for key in sorted(a.keys() & b.keys()):
            walk(a[key], b[key], f"{path}.{key}", notes, failures)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            failures.append(f"{path}: {len(a)} items against {len(b)}")
        for index, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{index}]", notes, failures)
    elif isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        if a == b:
            return
        difference = abs(a - b)
        if path.endswith("_m") and difference <= TOLERANCE_M:
            notes.append(f"{path} {a!r} / {b!r} ({difference:.3g} m)")
        else:
            failures.append(f"{path}: {a!r} against {b!r} (differs by {difference:.3g})")
    elif a != b:
        failures.append(f"{path}: {a!r} against {b!r}")


def main():
    if len(sys.argv) != 3:
        print("usage: json-agreement.py A.json B.json", file=sys.stderr)
        return 2
    try:
        first, second = (json.load(open(name)) for name in sys.argv[1:])
    except (OSError, ValueError) as error:
        print(f"not JSON: {error}")
        return 2
    notes, failures = [], []
    walk(first, second, "", notes, failures)
    for line in failures:
        print("DIFFERS", line)
    for line in notes:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
