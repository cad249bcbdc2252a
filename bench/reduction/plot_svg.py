#!/usr/bin/env python3
"""Draws the reduction chapter's figure as a plain SVG (no matplotlib needed).

    plot_svg.py REPORT.csv [SWEEP.csv] -o reduction.svg

REPORT.csv: the executable's --csv output (one row per stage, a CUB row, copy_gb_per_s).
SWEEP.csv:  the --sweep-block --csv output (stage, track, block, median_ms, gb_per_s, verified).
Left panel: GB/s of input read per stage, against the copy ceiling and CUB. Right panel:
GB/s against block size, one line per stage.
"""
import argparse
import csv
import html
import math
import sys

COLOURS = ["#4477aa", "#66ccee", "#228833", "#ccbb44", "#ee6677", "#aa3377", "#bbbbbb"]


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def nice_top(value):
    """A round axis maximum at or above value."""
    if value <= 0:
        return 1.0
    exponent = 10 ** math.floor(math.log10(value))
    for step in (1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 8, 10):
        if step * exponent >= value:
            return step * exponent
    return 10 * exponent


def text(x, y, s, size=12, anchor="start", weight="normal", colour="#222", rotate=None):
    transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="{colour}" font-family="sans-serif"{transform}>{html.escape(s)}</text>')


def axis(out, left, top, width, height, y_max, label, y_min=0.0):
    for i in range(6):
        value = y_min + (y_max - y_min) * i / 5
        y = top + height - height * i / 5
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        out.append(text(left - 6, y + 4, f"{value:.0f}", 11, "end"))
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + height}" stroke="#444"/>')
    out.append(f'<line x1="{left}" y1="{top + height}" x2="{left + width}" y2="{top + height}" stroke="#444"/>')
    out.append(text(left - 48, top + height / 2, label, 12, "middle", rotate=-90))


def progression_panel(out, rows, left, top, width, height):
    stages = [r for r in rows if number(r.get("gb_per_s")) is not None]
    if not stages:
        out.append(text(left, top + 20, "no timed rows in the report"))
        return
    copy = number(stages[0].get("copy_gb_per_s")) or 0
    values = [number(r["gb_per_s"]) for r in stages]
    y_max = nice_top(max(values + [copy]) * 1.08)
    axis(out, left, top, width, height, y_max, "GB/s of input read")
    slot = width / len(stages)
    for i, (row, value) in enumerate(zip(stages, values)):
        bar_h = height * value / y_max
        x = left + i * slot + slot * 0.15
        colour = COLOURS[-1] if row.get("is_baseline") == "yes" else COLOURS[i % (len(COLOURS) - 1)]
        out.append(f'<rect x="{x:.1f}" y="{top + height - bar_h:.1f}" width="{slot * 0.7:.1f}" '
                   f'height="{bar_h:.1f}" fill="{colour}"/>')
        out.append(text(x + slot * 0.35, top + height - bar_h - 4, f"{value:.0f}", 11, "middle"))
        out.append(text(x + slot * 0.35, top + height + 14, row["stage"], 10, "end", rotate=-35))
    if copy > 0:
        y = top + height - height * copy / y_max
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" stroke="#cc3311" '
                   f'stroke-dasharray="6 4"/>')
        out.append(text(left + width - 4, y - 5, f"copy ceiling {copy:.0f} GB/s (read + write)", 11, "end",
                        colour="#cc3311"))
    title = stages[0].get("title", "")
    out.append(text(left, top - 14, title, 12, weight="bold"))


def sweep_panel(out, rows, left, top, width, height):
    series = {}
    baselines = []
    for r in rows:
        value = number(r.get("gb_per_s"))
        block = number(r.get("block"))
        if value is not None and r.get("track") == "baseline":
            baselines.append((r["stage"], value))
            continue
        if value is None or block is None:
            continue
        label = r["stage"] + ("" if r.get("track", "solution") == "solution" else f" ({r['track']})")
        series.setdefault(label, []).append((int(block), value))
    if not series:
        out.append(text(left, top + 20, "no sweep rows"))
        return
    blocks = sorted({b for points in series.values() for b, _ in points})
    values = [v for points in series.values() for _, v in points] + [v for _, v in baselines]
    y_max = nice_top(max(values) * 1.03)
    # The differences between block sizes are a few percent: the axis starts near the lowest
    # value (and says so) so that they can be seen.
    step = y_max / 10
    y_min = max(0.0, math.floor(min(values) * 0.97 / step) * step)
    axis(out, left, top, width, height, y_max, "GB/s of input read" + (f" (axis from {y_min:.0f})" if y_min else ""),
         y_min)

    def y_of(value):
        return top + height - height * (value - y_min) / (y_max - y_min)

    for label, value in baselines:
        y = y_of(value)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" stroke="#555" '
                   f'stroke-dasharray="3 3"/>')
        out.append(text(left + width - 4, y + 14, f"{label} {value:.0f} GB/s", 11, "end", colour="#555"))

    def x_of(block):
        i = blocks.index(block)
        return left + width * (i + 0.5) / len(blocks)

    for b in blocks:
        out.append(text(x_of(b), top + height + 16, str(b), 11, "middle"))
    out.append(text(left + width / 2, top + height + 34, "threads per block", 12, "middle"))
    for i, (label, points) in enumerate(sorted(series.items())):
        colour = COLOURS[i % (len(COLOURS) - 1)]
        points.sort()
        path = " ".join(f"{'M' if j == 0 else 'L'}{x_of(b):.1f},{y_of(v):.1f}" for j, (b, v) in enumerate(points))
        out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for b, v in points:
            out.append(f'<circle cx="{x_of(b):.1f}" cy="{y_of(v):.1f}" r="3" '
                       f'fill="{colour}"/>')
        out.append(f'<rect x="{left + 10}" y="{top + 8 + 16 * i}" width="12" height="3" fill="{colour}"/>')
        out.append(text(left + 28, top + 13 + 16 * i, label, 11))
    out.append(text(left, top - 14, "block-size sweep", 12, weight="bold"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("sweep", nargs="?")
    parser.add_argument("-o", "--output", default="reduction.svg")
    args = parser.parse_args()
    try:
        report = read_rows(args.report)
        sweep = read_rows(args.sweep) if args.sweep else []
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    panel_w, panel_h, margin = 460, 300, 70
    width = margin + panel_w + (2 * margin + panel_w if sweep else margin)
    height = 60 + panel_h + 110
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">', f'<rect width="{width}" height="{height}" fill="white"/>']
    progression_panel(out, report, margin, 40, panel_w, panel_h)
    if sweep:
        sweep_panel(out, sweep, 3 * margin + panel_w, 40, panel_w, panel_h)
    out.append("</svg>")
    with open(args.output, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
