#!/usr/bin/env python3
"""Checks a chapter's picture against its trace.

    check_svg_trace.py [--expect FILE] SVG -- PROGRAM ARGS...

Runs PROGRAM ARGS (a chapter executable with --trace --svg SVG), which must exit with status 0,
then checks that SVG is well-formed XML and draws exactly the numbers the trace printed: every
drawn row (the <text> elements of class "value" or "item", with data-row and data-col) is a line
of the trace that starts with the row's label, with the same values in the same columns, in the
same order. When rsvg-convert is on PATH, it renders the picture to a PNG of the picture's size.
With --expect FILE the picture must also be byte for byte FILE (the copy a README shows).
"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def drawn_rows(root):
    """[(label, [text by column])] in document order; a row's cells are drawn one after another."""
    rows = []
    for e in root.iter(SVG_NS + "text"):
        classes = e.get("class", "").split()
        if "value" not in classes and "item" not in classes:
            continue
        label, col = e.get("data-row"), int(e.get("data-col"))
        if not rows or rows[-1][0] != label:
            rows.append((label, {}))
        if col in rows[-1][1]:
            fail(f"row {label!r}: column {col} drawn twice")
        rows[-1][1][col] = (e.text or "").strip()
    out = []
    for label, cells in rows:
        if sorted(cells) != list(range(len(cells))):
            fail(f"row {label!r}: columns {sorted(cells)} are not 0..{len(cells) - 1}")
        out.append((label, [cells[c] for c in range(len(cells))]))
    return out


def main(argv):
    expect = None
    if argv[:1] == ["--expect"]:
        expect, argv = argv[1], argv[2:]
    if len(argv) < 3 or argv[1] != "--":
        fail("usage: check_svg_trace.py [--expect FILE] SVG -- PROGRAM ARGS...")
    svg, command = argv[0], argv[2:]
    if os.path.exists(svg):
        os.remove(svg)
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"{' '.join(command)} exited with {run.returncode}\n{run.stdout}\n{run.stderr}")
    trace = run.stdout.splitlines()
    try:
        root = ET.parse(svg).getroot()
    except (OSError, ET.ParseError) as e:
        fail(f"{svg}: {e}")
    if root.tag != SVG_NS + "svg":
        fail(f"{svg}: the root element is {root.tag}, not svg")

    rows = drawn_rows(root)
    if not rows:
        fail(f"{svg} draws no values")
    line = 0
    for label, texts in rows:
        # the next trace line that starts with this row's label, then spaces
        while line < len(trace) and not (trace[line].startswith(label + " ") and trace[line][len(label):].strip()):
            line += 1
        if line == len(trace):
            fail(f"the picture's row {label!r} {texts} is not in the trace (in this order)")
        printed = [v.rstrip("*") for v in trace[line][len(label):].split()]  # * marks what a step changed
        if printed != texts:
            fail(f"row {label!r}: the trace prints {printed}, the picture draws {texts}")
        line += 1
    print(f"{svg}: {len(rows)} rows, {sum(len(t) for _, t in rows)} numbers, all as the trace prints them")

    if shutil.which("rsvg-convert"):
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "picture.png")
            subprocess.run(["rsvg-convert", "-o", png, svg], check=True, timeout=120)
            with open(png, "rb") as f:
                head = f.read(24)
            if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
                fail("rsvg-convert did not write a PNG")
            size = (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big"))
            want = (int(float(root.get("width"))), int(float(root.get("height"))))
            if size != want:
                fail(f"rendered {size[0]} x {size[1]}, the picture is {want[0]} x {want[1]}")
            print(f"rsvg-convert renders it: {size[0]} x {size[1]}")
    else:
        print("rsvg-convert is not on PATH (Debian: librsvg2-bin): rendering not checked")

    if expect is not None:
        with open(svg, "rb") as a, open(expect, "rb") as b:
            if a.read() != b.read():
                fail(f"{expect} is not what the program draws now; regenerate it with:\n  {' '.join(command[:1])} "
                     f"{' '.join(a for a in command[1:])} (writing to {expect})")
        print(f"{expect} is the same picture")


if __name__ == "__main__":
    main(sys.argv[1:])
