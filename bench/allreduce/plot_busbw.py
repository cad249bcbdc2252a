#!/usr/bin/env python3
"""The chapter's sweep as a figure (drawn, not stored): bus bandwidth and time against message
size, one line per stage, NCCL drawn bold, the link's measured speed and NVLink 4's datasheet
rate as ceilings.

    python3 bench/allreduce/plot_busbw.py sweep.csv busbw.svg [more sweep CSVs...]

Reads the CSV of `allreduce --sweep --csv` (several files: their rows together, e.g. stage 1's
shorter sweep beside the others). Needs matplotlib.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NVLINK4_PER_DIRECTION_GBS = 450.0  # H100 SXM: 18 links of 25 GB/s each way


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out = argv[2]
    rows = []
    for path in [argv[1]] + argv[3:]:
        with open(path, newline="") as f:
            rows += [r for r in csv.DictReader(f) if r["median_us"] and float(r["median_us"]) > 0 and r["verified"] == "yes"]
    if not rows:
        print("no verified rows to plot", file=sys.stderr)
        return 1
    stages = sorted({r["stage"] for r in rows}, key=lambda s: (s.startswith("nccl"), s))
    link = max(float(r["link_each_way_gb_per_s"] or 0) for r in rows)
    gpus = rows[0]["gpus"]
    ranks = rows[0]["ranks"]

    fig, (bw, lat) = plt.subplots(1, 2, figsize=(13, 5))
    for stage in stages:
        pts = sorted((int(r["bytes"]), float(r["bus_gb_per_s"]), float(r["median_us"])) for r in rows if r["stage"] == stage)
        x = [p[0] for p in pts]
        nccl = stage.startswith("nccl")
        style = dict(linewidth=3 if nccl else 1.5, color="black" if nccl else None, marker="." if not nccl else None)
        bw.plot(x, [p[1] for p in pts], label=stage, **style)
        lat.plot(x, [p[2] for p in pts], label=stage, **style)
    if link > 0:
        bw.axhline(link, linestyle="--", color="tab:gray", label=f"link, peer copies both ways ({link:.0f} GB/s)")
    bw.axhline(NVLINK4_PER_DIRECTION_GBS, linestyle=":", color="tab:red", label="NVLink 4 datasheet (450 GB/s each way)")
    for ax in (bw, lat):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes per GPU")
        ax.grid(True, which="both", alpha=0.3)
    bw.set_ylabel("bus bandwidth (GB/s) = algbw * 2(G-1)/G")
    bw.set_title(f"all-reduce, {ranks} ranks on {gpus} GPUs: bus bandwidth")
    lat.set_yscale("log")
    lat.set_ylabel("time per all-reduce (us, median)")
    lat.set_title("time")
    bw.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
