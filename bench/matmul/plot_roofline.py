#!/usr/bin/env python3
"""The matmul chapter's roofline: every stage a point, from the executable's --csv tables.

    python3 bench/matmul/plot_roofline.py table-8192-fp32.csv table-8192-bf16.csv -o roofline.svg

x: arithmetic intensity, the floating-point operations per byte the stage's tiling requests from
global memory. A block tile of BM x BN reads each element of A once per column of tiles and each
element of B once per row of tiles: bytes = s (M K ceil(N / BN) + K N ceil(M / BM) + M N), with s
the element size (4 for fp32, 2 for bf16). Stage 1's threads are tiles of one output: x-column
shares A's element across a warp of 32 columns (BM = 1, BN = 32); x-row reads a 32-byte sector for
each 4-byte element of A. y: the measured TFLOP/s (2 M N K / median time). The ceilings: the
compute peaks (fp32 without tensor cores, bf16 tensor cores, dense) and the DRAM bandwidth,
TFLOP/s = intensity x bandwidth; a point above the DRAM line is served from L2 (the tiles of
neighbouring blocks), not from DRAM. cuBLAS rows are drawn as dashed lines at their TFLOP/s.
No dependencies: the SVG is written by hand.
"""
import argparse
import csv
import math
import re
import sys


def tile_of(stage):
    """(BM, BN, element bytes, sector factor for A) of a report row's stage label, or None."""
    if stage.startswith("1 naive"):
        return (32, 1, 4, 8) if "x-row" in stage else (1, 32, 4, 1)
    if stage.startswith("2 tiled"):
        width = 32 if "tile32" in stage else 8 if "tile8" in stage else 16
        return (width, width, 4, 1)
    if stage.startswith("3 coarsened"):
        return (16, 64, 4, 1) if "coarse-4" in stage else (128, 128, 4, 1)
    if stage.startswith("4 "):
        return (128, 128, 4, 1)
    if stage.startswith("5 "):
        return (128, 128, 2, 1) if "128x128" in stage or "2-stage" in stage else (256, 128, 2, 1)
    if stage.startswith("6 "):
        for bm, bn in ((128, 256), (128, 128), (64, 128), (64, 64)):
            if f"{bm}x{bn}" in stage:
                return (bm, bn, 2, 1)
        # simple: 128 x 128; the default at the sizes the tables use (4096, 8192): 128 x 256
        return (128, 128, 2, 1) if "simple" in stage else (128, 256, 2, 1)
    return None


def intensity(M, N, K, tile):
    BM, BN, s, sector = tile
    a = s * sector * M * K * math.ceil(N / BN)
    b = s * K * N * math.ceil(M / BM)
    c = s * M * N
    return 2.0 * M * N * K / (a + b + c)


def read_rows(paths):
    points, libraries = [], []
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if not row.get("tflop_per_s") or row.get("verified") != "yes":
                    continue
                m = re.search(r"M = (\d+), N = (\d+), K = (\d+)", row["title"])
                if not m:
                    continue
                M, N, K = (int(x) for x in m.groups())
                tflops = float(row["tflop_per_s"])
                bf16 = "bf16" in row["title"]
                if row.get("is_baseline") == "yes":
                    libraries.append((row["stage"], tflops, bf16))
                    continue
                tile = tile_of(row["stage"])
                if tile is None or tflops <= 0:
                    continue
                points.append((row["stage"], intensity(M, N, K, tile), tflops, bf16))
    return points, libraries


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tables", nargs="+", help="CSV files written by matmul --csv")
    p.add_argument("-o", "--output", required=True, help="the SVG to write")
    p.add_argument("--bandwidth", type=float, default=3.35, help="DRAM bandwidth, TB/s (default: H100 SXM datasheet)")
    p.add_argument("--peak-fp32", type=float, default=67.0)
    p.add_argument("--peak-bf16", type=float, default=989.0)
    p.add_argument("--title", default="matmul: the stages on the roofline")
    args = p.parse_args()
    points, libraries = read_rows(args.tables)
    if not points:
        sys.exit("plot_roofline: no verified stage rows with TFLOP/s in " + ", ".join(args.tables))

    W, H, left, right, top, bottom = 760, 520, 70, 30, 40, 60
    x_lo, x_hi, y_lo, y_hi = 0.01, 1000.0, 0.01, 3000.0

    def X(v):
        return left + (math.log10(v) - math.log10(x_lo)) / (math.log10(x_hi) - math.log10(x_lo)) * (W - left - right)

    def Y(v):
        return H - bottom - (math.log10(v) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo)) * (H - top - bottom)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" '
           'font-family="sans-serif" font-size="11">', f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">{args.title}</text>']
    for e in range(-2, 4):  # decades
        v = 10.0 ** e
        out.append(f'<line x1="{X(v):.1f}" y1="{top}" x2="{X(v):.1f}" y2="{H - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{X(v):.1f}" y="{H - bottom + 16}" text-anchor="middle">{v:g}</text>')
        if v <= y_hi:
            out.append(f'<line x1="{left}" y1="{Y(v):.1f}" x2="{W - right}" y2="{Y(v):.1f}" stroke="#eee"/>')
            out.append(f'<text x="{left - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:g}</text>')
    out.append(f'<text x="{(W + left) / 2}" y="{H - 18}" text-anchor="middle">flops per byte requested from global '
               'memory (the tiling\'s arithmetic intensity)</text>')
    out.append(f'<text x="16" y="{(H - bottom + top) / 2}" transform="rotate(-90 16 {(H - bottom + top) / 2})" '
               'text-anchor="middle">TFLOP/s</text>')
    for peak, name, colour in ((args.peak_fp32, "fp32 peak", "#1f77b4"), (args.peak_bf16, "bf16 tensor-core peak", "#d62728")):
        ridge = peak / args.bandwidth
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{X(x_lo):.1f},{Y(x_lo * args.bandwidth):.1f} '
                   f'{X(ridge):.1f},{Y(peak):.1f} {X(x_hi):.1f},{Y(peak):.1f}"/>')
        out.append(f'<text x="{X(x_hi) - 4:.1f}" y="{Y(peak) - 5:.1f}" text-anchor="end" fill="{colour}">{name} '
                   f'{peak:g} TFLOP/s</text>')
    out.append(f'<text x="{X(0.03):.1f}" y="{Y(0.03 * args.bandwidth) - 8:.1f}" fill="#555">DRAM {args.bandwidth:g} TB/s</text>')
    for name, tflops, bf16 in libraries:
        colour = "#d62728" if bf16 else "#1f77b4"
        out.append(f'<line x1="{left}" y1="{Y(tflops):.1f}" x2="{W - right}" y2="{Y(tflops):.1f}" stroke="{colour}" '
                   'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{left + 4}" y="{Y(tflops) - 4:.1f}" fill="{colour}">{name} {tflops:.1f}</text>')
    for label, x, y, bf16 in points:
        colour = "#d62728" if bf16 else "#1f77b4"
        out.append(f'<circle cx="{X(x):.1f}" cy="{Y(y):.1f}" r="4" fill="{colour}"/>')
        out.append(f'<text x="{X(x) + 6:.1f}" y="{Y(y) + 4:.1f}">{label} ({y:.1f})</text>')
    out.append("</svg>")
    with open(args.output, "w") as f:
        f.write("\n".join(out) + "\n")
    print("wrote", args.output)


if __name__ == "__main__":
    main()
