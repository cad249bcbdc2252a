#include <string>

#include <fmt/format.h>

#include "wb/generate.hpp"
#include "wb/runtime.hpp"

#include "options.hpp"
#include "stages.hpp"

namespace attention {

stage_selection select_stages(const options& opt) {
  stage_selection out;
  for (const auto& s : stages) {
    if (!wb::stage_selected(opt.common.stages, s.number, s.suite)) continue;
    (s.number == 6 ? out.decode : out.prefill) = true;
  }
  return out;
}

double attention_flops(const dims& d) {
  // Pairs (i, j) with j < visible_end(i): seq kv_seq, or with the bottom-right causal mask
  // seq (kv_seq - seq) + seq (seq + 1) / 2.
  const auto s = static_cast<double>(d.seq), kv = static_cast<double>(d.kv_seq);
  const double pairs = d.causal ? s * (kv - s) + s * (s + 1) / 2 : s * kv;
  return 4.0 * static_cast<double>(d.batch * d.heads) * pairs * static_cast<double>(d.dim);
}

double kv_bytes(const dims& d, std::size_t element_bytes) {
  return 2.0 * static_cast<double>(d.batch * d.heads) * static_cast<double>(d.kv_seq) * static_cast<double>(d.dim) *
         static_cast<double>(element_bytes);
}

problem_input make_input(const options& opt, const stage_selection& selected) {
  problem_input in;
  dims& d = in.d;
  const bool given = opt.q_given || opt.k_given || opt.v_given;
  if (given) {
    if (!opt.q_given || !opt.k_given || !opt.v_given)
      throw wb::usage_error("give all of Q, K and V (--q/--q-file, --k/--k-file, --v/--v-file)");
    if (opt.seq < 0 || opt.dim < 0)
      throw wb::usage_error("--q, --k and --v are [batch][head][position][dim] lists: give their shape with --seq and "
                            "--dim (--batch, --heads default to 1, --kv-seq to --seq)");
    d.batch = opt.batch >= 0 ? opt.batch : 1;
    d.heads = opt.heads >= 0 ? opt.heads : 1;
    d.seq = opt.seq;
    d.dim = opt.dim;
  } else {
    // The GPU's default is a prefill of b = 4, h = 16, seq = 4096, d = 128; a run of stage 6
    // alone decodes one token against a cache of 32768 (512 on the cpu backend, which emulates).
    // --trace follows one (batch, head) of 40 queries against 70 keys of d = 4 unless told otherwise.
    const bool decoding = selected.decode && !selected.prefill;
    d.batch = opt.batch >= 0 ? opt.batch : opt.trace ? 1 : wb::backend_is_cuda ? 4 : 1;
    d.heads = opt.heads >= 0 ? opt.heads : opt.trace ? 1 : wb::backend_is_cuda ? 16 : 2;
    d.dim = opt.dim >= 0 ? opt.dim : opt.trace ? 4 : wb::backend_is_cuda ? 128 : 32;
    d.seq = opt.seq >= 0 ? opt.seq : opt.trace ? 40 : decoding ? 1 : wb::backend_is_cuda ? 4096 : 64;
  }
  const bool decoding_default = !given && !opt.trace && selected.decode && !selected.prefill && opt.seq < 0;
  d.kv_seq = opt.kv_seq >= 0               ? opt.kv_seq
             : !given && opt.trace && opt.seq < 0 ? 70
             : decoding_default                  ? (wb::backend_is_cuda ? 32768 : 512)
                                                 : d.seq;
  d.causal = opt.causal;
  if (d.dim < 1 || d.dim > max_dim) throw wb::usage_error(fmt::format("--dim {}: these stages take d from 1 to 256", d.dim));
  if (d.kv_seq == 0 && d.batch * d.heads * d.seq > 0)
    throw wb::usage_error("--kv-seq 0: no keys to attend to (softmax over nothing is not defined)");
  if (d.causal && d.kv_seq < d.seq) {
    throw wb::usage_error(fmt::format(
        "--causal with --kv-seq {} < --seq {}: the mask is aligned to the bottom right (query i sees keys j <= i + "
        "kv_seq - seq), so the first queries would see no key; give kv_seq >= seq",
        d.kv_seq, d.seq));
  }
  const std::string what =
      fmt::format("attention with batch {}, heads {}, seq {}, kv_seq {}, d {}", d.batch, d.heads, d.seq, d.kv_seq, d.dim);
  const std::uint64_t bh = wb::bytes_for(static_cast<std::uint64_t>(d.batch), static_cast<std::uint64_t>(d.heads), what);
  const std::uint64_t q_count = wb::bytes_for(wb::bytes_for(bh, static_cast<std::uint64_t>(d.seq), what),
                                              static_cast<std::uint64_t>(d.dim), what);
  const std::uint64_t kv_count = wb::bytes_for(wb::bytes_for(bh, static_cast<std::uint64_t>(d.kv_seq), what),
                                               static_cast<std::uint64_t>(d.dim), what);
  if (opt.common.print) wb::require_printable(q_count, "O");
  if (!wb::backend_is_cuda) {
    const double work = static_cast<double>(bh) * static_cast<double>(d.seq) * static_cast<double>(d.kv_seq) *
                        static_cast<double>(d.dim);
    if (work > 0x1p30)
      throw wb::usage_error(fmt::format("{}: {:.3g} multiply-adds per pass; the cpu backend emulates up to 2^30 (try "
                                        "the default, or --seq 256)",
                                        what, work));
  }
  // Device: Q and O, K and V in fp32 and bf16 (stage 1's S and stage 6's partials are asked for
  // by the stages themselves); host: Q, K, V, and O brought back twice.
  const std::uint64_t device = wb::bytes_for(q_count, 8, what) + wb::bytes_for(kv_count, 12, what);
  const std::uint64_t host = wb::bytes_for(q_count, 12, what) + wb::bytes_for(kv_count, 8, what);
  wb::require_memory(device + (std::uint64_t{256} << 20), host, what);

  if (given) {
    const auto read = [](bool from_file, const std::string& file, const std::string& list, const char* flag) {
      return from_file ? wb::read_numbers_file<float>(file) : wb::parse_list<float>(list, flag);
    };
    in.Q = read(opt.q_from_file, opt.q_file, opt.q_list, "--q");
    in.K = read(opt.k_from_file, opt.k_file, opt.k_list, "--k");
    in.V = read(opt.v_from_file, opt.v_file, opt.v_list, "--v");
    const auto check = [&](const std::vector<float>& x, std::uint64_t count, const char* name, const char* rows,
                           std::int64_t n) {
      if (x.size() != count) {
        throw wb::usage_error(fmt::format("{} has {} numbers; as [batch {}][heads {}][{} {}][d {}] it needs {}", name,
                                          x.size(), d.batch, d.heads, rows, n, d.dim, count));
      }
    };
    check(in.Q, q_count, "Q", "seq", d.seq);
    check(in.K, kv_count, "K", "kv_seq", d.kv_seq);
    check(in.V, kv_count, "V", "kv_seq", d.kv_seq);
    in.source = "given";
    return in;
  }
  in.Q = wb::gen::uniform<float>(q_count, opt.common.seed, -1.0f, 1.0f);
  in.K = wb::gen::uniform<float>(kv_count, opt.common.seed + 1, -1.0f, 1.0f);
  in.V = wb::gen::uniform<float>(kv_count, opt.common.seed + 2, -1.0f, 1.0f);
  in.source = fmt::format("uniform in [-1, 1), seed {}", opt.common.seed);
  return in;
}

}  // namespace attention
