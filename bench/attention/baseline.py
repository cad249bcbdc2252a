#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention on the attention chapter's shapes: the library a
user would call instead of the chapter's stages, timed with CUDA events (3 warm-ups, the median
of 20 runs), one line per (shape, backend, type), as CSV on stdout.

    python3 bench/attention/baseline.py [--reps 20] [--quick]

Backends: cuDNN and FlashAttention (fp16/bf16 only, tensor cores) and the memory-efficient
kernel (which also takes fp32: the row to set beside stages 1-3, which run fp32 on CUDA cores).
A backend that refuses a shape or type prints its refusal instead of a time.

Prefill: b=4 h=16 s=4096 d=64 and d=128, causal and not; b=1 h=16 s=16384 d=128. FLOPs count
4 d per (query, key) pair a query sees, as the chapter's executable does (about half of
4 b h s^2 d with the causal mask).

Decode: one query per sequence, b in {1, 4, 8}, h 16, d 128, kv in {8K, 32K, 128K}, bf16 and
fp32 K and V; GB/s counts the bytes of K and V. PyTorch's is_causal aligns the mask to the top
left, so a single query with is_causal=True would see one key: decoding passes no mask (a
query that is the last position sees every key, which is the chapter's bottom-right mask).
"""
import argparse
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = [
    ("cudnn", SDPBackend.CUDNN_ATTENTION),
    ("flash", SDPBackend.FLASH_ATTENTION),
    ("efficient", SDPBackend.EFFICIENT_ATTENTION),
]
TYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def time_ms(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def pairs(seq, kv, causal):
    # query i sees keys j <= i + kv - seq (bottom right); with seq == kv PyTorch's top-left is the same
    return seq * (kv - seq) + seq * (seq + 1) / 2 if causal else seq * kv


def run(kind, b, h, seq, kv, d, causal, type_name, reps):
    dtype = TYPES[type_name]
    g = torch.Generator(device="cuda").manual_seed(42)
    q = torch.rand(b, h, seq, d, device="cuda", dtype=dtype, generator=g) * 2 - 1
    k = torch.rand(b, h, kv, d, device="cuda", dtype=dtype, generator=g) * 2 - 1
    v = torch.rand(b, h, kv, d, device="cuda", dtype=dtype, generator=g) * 2 - 1
    for name, backend in BACKENDS:
        label = f"{kind},{b},{h},{seq},{kv},{d},{int(causal)},{type_name},{name}"
        try:
            with sdpa_kernel(backend):
                fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                ms = time_ms(fn, reps)
        except Exception as e:  # the backend refuses the shape or the type
            print(f"{label},,,refused: {str(e).splitlines()[0][:120]}")
            continue
        tflops = 4 * b * h * pairs(seq, kv, causal) * d / (ms * 1e-3) / 1e12
        gbs = 2 * b * h * kv * d * q.element_size() / (ms * 1e-3) / 1e9
        print(f"{label},{ms:.4f},{tflops:.2f},{gbs:.1f}")
    del q, k, v
    torch.cuda.empty_cache()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="one prefill and one decode shape")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: nothing to time", file=sys.stderr)
        return 2
    print(f"# {torch.cuda.get_device_name()}, torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    print("kind,batch,heads,seq,kv_seq,d,causal,type,backend,median_ms,tflop_per_s,kv_gb_per_s")
    prefill = [(4, 16, 4096, 4096, d, c) for d in (64, 128) for c in (False, True)] + [(1, 16, 16384, 16384, 128, c) for c in (False, True)]
    decode = [(b, 16, 1, kv, 128, False) for b in (1, 4, 8) for kv in (8192, 32768, 131072)]
    if args.quick:
        prefill, decode = prefill[:1], decode[:1]
    for shape in prefill:
        for type_name in ("bf16", "fp32"):
            run("prefill", *shape, type_name, args.reps)
    for shape in decode:
        for type_name in ("bf16", "fp32"):
            run("decode", *shape, type_name, args.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
