#!/usr/bin/env python3
"""The sort chapter's figure, from the benchmark CSVs (no plotting library needed).

    plot_svg.py KEYS.csv PAIRS.csv BITS_SWEEP.csv -o sort.svg

Left and middle: GB/s of every stage and of CUB (keys only, then key-value), against the copy
ceiling. Right: stages 3 and 4 in milliseconds against the digit width (bits per pass).
"""
import argparse
import csv


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def bars(rows, x0, title):
    width, height = 420, 300
    copy = next((num(r["copy_gb_per_s"]) for r in rows if num(r["copy_gb_per_s"])), None)
    shown = [r for r in rows if num(r["gb_per_s"]) is not None]
    top = max([num(r["gb_per_s"]) for r in shown] + [copy or 1.0])
    out = [f'<text x="{x0 + 10}" y="20" font-size="13">{title}</text>']
    step = (height - 60) / max(len(shown), 1)
    for i, r in enumerate(shown):
        y = 40 + i * step
        w = (width - 200) * num(r["gb_per_s"]) / top
        out.append(f'<text x="{x0 + 10}" y="{y + step * 0.6:.1f}" font-size="10">{short(r["stage"])[:30]}</text>')
        colour = "#888" if r.get("is_baseline") == "yes" else "#3a7"
        out.append(f'<rect x="{x0 + 180}" y="{y:.1f}" width="{w:.1f}" height="{step * 0.7:.1f}" fill="{colour}"/>')
        out.append(f'<text x="{x0 + 184 + w:.1f}" y="{y + step * 0.6:.1f}" font-size="10">{num(r["gb_per_s"]):.1f}</text>')
    if copy:
        x = x0 + 180 + (width - 200) * copy / top
        out.append(f'<line x1="{x:.1f}" y1="30" x2="{x:.1f}" y2="{height - 15}" stroke="#c33" stroke-dasharray="4"/>')
        out.append(f'<text x="{x - 60:.1f}" y="{height - 3}" font-size="10" fill="#c33">copy {copy:.0f} GB/s</text>')
    return out


def size(rows):
    """The input size of a report's rows as 2^k where it is a power of two."""
    n = int(rows[0]["items"]) if rows and rows[0].get("items") else 0
    return f"2^{n.bit_length() - 1}" if n > 0 and n & (n - 1) == 0 else str(n)


def short(stage):
    return stage.replace("cub::Device", "CUB ")


def sweep(rows, x0):
    out = [f'<text x="{x0 + 10}" y="20" font-size="13">stages 3 and 4, {size(rows)} keys: ms against bits per pass</text>']
    pts = [(int(r["bits"]), num(r["median_ms"]), r["stage"]) for r in rows if num(r["median_ms"])]
    if not pts:
        return out
    stages = sorted({p[2] for p in pts})
    top = max(p[1] for p in pts)
    xs = {1: 0, 2: 1, 4: 2, 8: 3}
    colours = ["#37a", "#a73", "#3a7", "#888"]
    y = lambda ms: 250 - 210 * ms / top
    for ms in (0, top / 2, top):  # the y axis: three ticks in ms
        out.append(f'<line x1="{x0 + 40}" y1="{y(ms):.1f}" x2="{x0 + 350}" y2="{y(ms):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 + 4}" y="{y(ms) + 4:.1f}" font-size="10">{ms:.0f}</text>')
    for k, stage in enumerate(stages):
        line = sorted((xs[b], ms) for b, ms, s in pts if s == stage and b in xs)
        coords = " ".join(f"{x0 + 50 + 95 * x:.1f},{y(ms):.1f}" for x, ms in line)
        colour = colours[k % len(colours)]
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{x0 + 360}" y="{60 + 16 * k}" font-size="10" fill="{colour}">{short(stage)}</text>')
    for b, x in xs.items():
        out.append(f'<text x="{x0 + 38 + 95 * x}" y="268" font-size="10">{b} bit{"s" if b > 1 else ""}</text>')
    out.append(f'<text x="{x0 + 4}" y="32" font-size="10">ms</text>')
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("keys")
    ap.add_argument("pairs")
    ap.add_argument("bits")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    keys, pairs, bits = (list(csv.DictReader(open(f))) for f in (a.keys, a.pairs, a.bits))
    parts = bars(keys, 0, f"keys only, {size(keys)} keys: GB/s")
    parts += bars(pairs, 440, f"key-value, {size(pairs)} pairs: GB/s")
    parts += sweep(bits, 880)
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="1420" height="310" font-family="sans-serif">',
           '<rect width="100%" height="100%" fill="white"/>'] + parts + ["</svg>"]
    open(a.output, "w").write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()
