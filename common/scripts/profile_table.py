#!/usr/bin/env python3
"""Turns Nsight Compute's raw CSV pages into one profile table per chapter (markdown + CSV).

Used by common/scripts/profile.sh; standard library only, so it runs on a bare GPU machine.

    profile_table.py --chapter merge --work DIR --md OUT.md --csv OUT.csv [--meta "key: value"]...

DIR holds, for each stage N that was profiled:
    <chapter>-stage<N>.ncu.csv     `ncu -i REPORT --csv --page raw --print-units base` of that run
                                   (absent or empty when the stage launched no kernel)
    <chapter>-stage<N>.report.csv  the chapter executable's own --csv report of the same run
                                   (gives the stage's name, "2 basic"; optional)

One run of a stage launches its kernels several times (a verification run, warm-up runs, the
timed run). The launches repeat with a period: the table keeps the last period, i.e. one run of
the stage, and folds launches of the same kernel with the same grid and block within that run
into one row (their times add up; the rates are averaged, weighted by time).
"""
import argparse
import csv
import glob
import io
import os
import re
import sys

# The fixed metric set (see common/README.md, "Profile view"). Names checked on an H100 with
# Nsight Compute 2025.3 (`ncu --query-metrics`).
METRICS = [
    "gpu__time_duration.sum",                               # duration
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",   # DRAM throughput, % of peak
    "dram__bytes.sum.per_second",                           # DRAM throughput, bytes/s
    "lts__t_sector_hit_rate.pct",                           # L2 hit rate
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",   # shared-memory bank conflicts ...
    "smsp__sass_inst_executed_op_shared.sum",               # ... per shared-memory instruction
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",       # (wavefronts, for the CSV)
    "sm__warps_active.avg.pct_of_peak_sustained_active",    # achieved occupancy
    "smsp__thread_inst_executed.sum",                       # active threads per warp =
    "smsp__inst_executed.sum",                              #   thread instructions / warp instructions
    "smsp__issue_active.avg.pct_of_peak_sustained_active",  # issue-slot utilisation
]
# Warp-stall breakdown: cycles per issued instruction that warps spend in each stall reason
# (the Warp State section's numbers); the largest one is the "top stall".
STALL_REGEX = r"regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$"
STALL_COLUMN = re.compile(r"^smsp__average_warps_issue_stalled_(\w+?)_per_issue_active\.ratio$")
# "selected" is the cycle a warp issues: not a stall.
NOT_A_STALL = {"selected"}

TIME_UNITS = {"ns": 1.0, "nsecond": 1.0, "us": 1e3, "usecond": 1e3, "ms": 1e6, "msecond": 1e6, "s": 1e9, "second": 1e9}
RATE_UNITS = {"byte/s": 1.0, "Kbyte/s": 1e3, "Mbyte/s": 1e6, "Gbyte/s": 1e9, "Tbyte/s": 1e12, "Pbyte/s": 1e15,
              "byte/second": 1.0, "Kbyte/second": 1e3, "Mbyte/second": 1e6, "Gbyte/second": 1e9, "Tbyte/second": 1e12}

COLUMNS = [  # (csv name, markdown header)
    ("chapter", None),
    ("stage", "stage"),
    ("kernel", "kernel"),
    ("launches", "launches"),
    ("grid", "grid × block"),
    ("block", None),
    ("time_us", "time (µs)"),
    ("dram_pct_of_peak", "DRAM % of peak"),
    ("dram_gb_per_s", "DRAM GB/s"),
    ("l2_hit_pct", "L2 hit %"),
    ("bank_conflicts_per_shared_request", "bank conflicts / shared request"),
    ("achieved_occupancy_pct", "occupancy %"),
    ("active_threads_per_warp", "threads / warp"),
    ("issue_slots_busy_pct", "issue slots busy %"),
    ("top_stall", "top stall (share of stall cycles)"),
    ("top_stall_cycles_per_issue", None),
    ("all_stall_cycles_per_issue", None),
    ("shared_wavefronts", None),
    ("note", None),
]


class ProfileError(Exception):
    pass


def number(text):
    """ncu writes 1,234,567.89 (thousands separators) and '' or 'n/a' for nothing."""
    text = (text or "").strip().replace(",", "")
    if text in ("", "n/a", "N/A", "-"):
        return None
    try:
        return float(text)
    except ValueError:
        return None


def clean_kernel_name(name):
    """'void solution::(anonymous namespace)::merge_tile_kernel<int, 512>(const T1 *, long)'
    -> 'merge_tile_kernel<int, 512>': no return type, no parameters, no namespaces."""
    name = name.strip()
    if name.startswith("void "):
        name = name[5:]
    # drop the parameter list: the last balanced (...) group at the end
    if name.endswith(")"):
        depth = 0
        for i in range(len(name) - 1, -1, -1):
            if name[i] == ")":
                depth += 1
            elif name[i] == "(":
                depth -= 1
                if depth == 0:
                    name = name[:i]
                    break
    # drop namespaces: split on '::' outside template brackets and parentheses
    depth, last = 0, 0
    for i, ch in enumerate(name):
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth = max(0, depth - 1)  # ncu's shortened names can hold a stray '>' ("unnamed>::")
        elif ch == ":" and depth == 0 and name[i:i + 2] == "::":
            last = i + 2
    return name[last:].strip()


def parse_dims(text):
    """'(256, 1, 1)' -> '256' ; '(16, 8, 1)' -> '16x8'."""
    parts = [p.strip() for p in (text or "").strip("() ").split(",") if p.strip()]
    while len(parts) > 1 and parts[-1] == "1":
        parts.pop()
    return "x".join(parts) if parts else "?"


def parse_ncu_csv(text):
    """Rows of `ncu --csv --page raw`: a header row, a units row, then one row per profiled
    kernel launch. Returns a list of launches: dicts with name, grid, block and the metric values
    (floats, in base units: ns, bytes/s, %)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("==")]
    if not lines:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header = rows[0]
    if "Kernel Name" not in header:
        raise ProfileError("not an ncu raw CSV page: no 'Kernel Name' column")
    units = rows[1] if len(rows) > 1 and rows[1] and rows[1][0] == "" else [""] * len(header)
    data = rows[2:] if units is rows[1] else rows[1:]
    col = {h: i for i, h in enumerate(header)}
    wanted = [m for m in METRICS if m in col] + [h for h in header if STALL_COLUMN.match(h)]
    missing = [m for m in METRICS if m not in col]
    if missing:
        raise ProfileError("the ncu CSV lacks metrics: " + ", ".join(missing))
    launches = []
    for r in data:
        if len(r) < len(header):
            continue
        launch = {
            "id": int(number(r[col["ID"]]) or 0) if "ID" in col else len(launches),
            "name": clean_kernel_name(r[col["Kernel Name"]]),
            "grid": parse_dims(r[col["Grid Size"]]) if "Grid Size" in col else "?",
            "block": parse_dims(r[col["Block Size"]]) if "Block Size" in col else "?",
        }
        for m in wanted:
            v = number(r[col[m]])
            unit = units[col[m]]
            if v is not None and unit in TIME_UNITS:
                v *= TIME_UNITS[unit]
            elif v is not None and unit in RATE_UNITS:
                v *= RATE_UNITS[unit]
            launch[m] = v
        launches.append(launch)
    launches.sort(key=lambda x: x["id"])
    return launches


def one_run(launches):
    """The last run of the stage. The launches are R runs of the same sequence (verification,
    warm-ups, timed run): find the shortest period p with the whole list p-periodic, else the
    shortest p with the last two p-blocks equal; keep the last p launches."""
    sig = [(x["name"], x["grid"], x["block"]) for x in launches]
    n = len(sig)
    for p in range(1, n // 2 + 1):
        if n % p == 0 and all(sig[i] == sig[i % p] for i in range(n)):
            return launches[n - p:], n // p
    for p in range(1, n // 2 + 1):
        if sig[n - p:] == sig[n - 2 * p:n - p]:
            return launches[n - p:], None
    return launches, None


def fold(run):
    """One row per (kernel, grid, block) of the run, in order of first launch."""
    groups = {}
    for x in run:
        groups.setdefault((x["name"], x["grid"], x["block"]), []).append(x)
    rows = []
    for (name, grid, block), xs in groups.items():
        def total(m):
            vals = [x.get(m) for x in xs]
            return None if any(v is None for v in vals) else sum(vals)

        time = total("gpu__time_duration.sum") or 0.0

        def weighted(m):
            vals = [(x.get(m), x.get("gpu__time_duration.sum") or 0.0) for x in xs]
            if any(v is None for v, _ in vals):
                return None
            w = sum(t for _, t in vals)
            return sum(v * t for v, t in vals) / w if w > 0 else sum(v for v, _ in vals) / len(vals)

        stalls = {}
        for m in xs[0]:
            match = STALL_COLUMN.match(m)
            if match and match.group(1) not in NOT_A_STALL:
                v = weighted(m)
                if v is not None:
                    stalls[match.group(1)] = v
        conflicts, shared_inst = total("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"), total(
            "smsp__sass_inst_executed_op_shared.sum")
        thread_inst, warp_inst = total("smsp__thread_inst_executed.sum"), total("smsp__inst_executed.sum")
        row = {
            "kernel": name, "launches": len(xs), "grid": grid, "block": block,
            "time_us": time / 1e3,
            "dram_pct_of_peak": weighted("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "dram_gb_per_s": (weighted("dram__bytes.sum.per_second") or 0.0) / 1e9
            if weighted("dram__bytes.sum.per_second") is not None else None,
            "l2_hit_pct": weighted("lts__t_sector_hit_rate.pct"),
            # no shared-memory instruction: nothing to conflict (None, printed as a dash)
            "bank_conflicts_per_shared_request": conflicts / shared_inst if conflicts is not None and shared_inst else None,
            "shared_wavefronts": total("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
            "achieved_occupancy_pct": weighted("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "active_threads_per_warp": thread_inst / warp_inst if thread_inst is not None and warp_inst else None,
            "issue_slots_busy_pct": weighted("smsp__issue_active.avg.pct_of_peak_sustained_active"),
            "top_stall": None, "top_stall_cycles_per_issue": None, "all_stall_cycles_per_issue": None,
        }
        if stalls:
            top = max(stalls, key=lambda k: stalls[k])
            all_cycles = sum(stalls.values())
            row["top_stall"] = top
            row["top_stall_cycles_per_issue"] = stalls[top]
            row["all_stall_cycles_per_issue"] = all_cycles
        rows.append(row)
    return rows


def stage_label(report_csv, number_):
    """'2 basic' from the executable's own report (the non-baseline row that starts with N)."""
    if report_csv and os.path.exists(report_csv):
        with open(report_csv, newline="") as f:
            for r in csv.DictReader(f):
                label = (r.get("stage") or "").strip()
                if r.get("is_baseline", "no") != "yes" and re.match(rf"^{number_}\b", label):
                    return label, (r.get("note") or "").strip()
    return str(number_), ""


def stage_files(work, chapter):
    found = {}
    for path in glob.glob(os.path.join(work, f"{chapter}-stage*.*.csv")):
        m = re.match(rf"^{re.escape(chapter)}-stage(\d+)\.(ncu|report)\.csv$", os.path.basename(path))
        if m:
            found.setdefault(int(m.group(1)), {})[m.group(2)] = path
    return dict(sorted(found.items()))


def build_rows(chapter, work):
    rows = []
    for n, files in stage_files(work, chapter).items():
        label, note = stage_label(files.get("report"), n)
        launches = []
        if "ncu" in files:
            with open(files["ncu"], newline="") as f:
                launches = parse_ncu_csv(f.read())
        if not launches:
            rows.append({"chapter": chapter, "stage": label, "kernel": "no kernel launched", "launches": 0,
                         "note": note or "runs on the host"})
            continue
        run, runs = one_run(launches)
        for r in fold(run):
            r.update(chapter=chapter, stage=label,
                     note=f"one run of {runs} profiled" if runs else f"{len(launches)} launches profiled, last period kept")
            rows.append(r)
    return rows


def fmt(value, digits):
    if value is None:
        return "–"
    if isinstance(value, str):
        return value
    if digits == 0:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def markdown(rows, meta):
    out = []
    for line in meta:
        out.append(f"- {line}")
    if meta:
        out.append("")
    headers = [h for _, h in COLUMNS if h]
    out.append("| " + " | ".join(headers) + " |")
    out.append("|" + "|".join(" --- " if h in ("stage", "kernel", "grid × block", "top stall (share of stall cycles)")
                              else " ---: " for h in headers) + "|")
    for r in rows:
        if r.get("launches", 0) == 0:
            cells = [r["stage"], r["kernel"]] + ["–"] * (len(headers) - 2)
        else:
            stall = "–"
            if r.get("top_stall"):
                share = r["top_stall_cycles_per_issue"] / r["all_stall_cycles_per_issue"] * 100 \
                    if r["all_stall_cycles_per_issue"] else 0.0
                stall = f"{r['top_stall'].replace('_', ' ')} ({share:.0f}%)"
            cells = [r["stage"], f"`{r['kernel']}`", str(r["launches"]), f"{r['grid']} × {r['block']}",
                     fmt(r["time_us"], 1), fmt(r["dram_pct_of_peak"], 1), fmt(r["dram_gb_per_s"], 0),
                     fmt(r["l2_hit_pct"], 1), fmt(r["bank_conflicts_per_shared_request"], 2),
                     fmt(r["achieved_occupancy_pct"], 1), fmt(r["active_threads_per_warp"], 1),
                     fmt(r["issue_slots_busy_pct"], 1), stall]
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out) + "\n"


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c for c, _ in COLUMNS])
        for r in rows:
            w.writerow(["" if r.get(c) is None else (f"{r[c]:.6g}" if isinstance(r[c], float) else r[c])
                        for c, _ in COLUMNS])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chapter", required=True)
    ap.add_argument("--work", required=True, help="folder with <chapter>-stage<N>.ncu.csv / .report.csv")
    ap.add_argument("--md", required=True, help="markdown table to write")
    ap.add_argument("--csv", required=True, help="CSV table to write")
    ap.add_argument("--title", default=None, help="heading of the markdown file")
    ap.add_argument("--meta", action="append", default=[], help="a line for the list above the table")
    ap.add_argument("--metrics", action="store_true", help="print the ncu --metrics argument and exit")
    if "--metrics" in argv:  # no other argument needed
        print(",".join(METRICS + [STALL_REGEX]))
        return 0
    a = ap.parse_args(argv)
    if not os.path.isdir(a.work):
        print(f"profile_table: {a.work}: no such folder", file=sys.stderr)
        return 2
    try:
        rows = build_rows(a.chapter, a.work)
    except ProfileError as e:
        print(f"profile_table: {a.chapter}: {e}", file=sys.stderr)
        return 1
    if not rows:
        print(f"profile_table: {a.chapter}: no stage files in {a.work}", file=sys.stderr)
        return 1
    with open(a.md, "w") as f:
        f.write(f"# {a.title or a.chapter + ': profile'}\n\n")
        f.write(markdown(rows, a.meta))
    write_csv(rows, a.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
