// reduction --trace [--svg FILE]: the tree of stages 1 and 2 for one block, thread by thread
// (The CUDA Handbook, listings 12-1 and 12-2), its picture, and the device's sums for that one
// block, which must be the tree's root. Included by main.cpp after the chapter's traits, whose
// jobs it runs.
#pragma once

#include "reduction_chapter.hpp"

#include <fstream>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "wb/svg_pictures.hpp"

#include "reduction.hpp"
#include "stages.hpp"

namespace {

template <class T>
int trace(reduction_chapter<T>& chapter, const options& opt) {
  const std::vector<T>& data = chapter.data();
  const std::span<const T> in(data);
  fmt::print("{}", trace_tree<T>(in, opt.cfg.block));
  if (!opt.svg.empty()) {
    wb::svg::reduction_tree_input<sum_t<T>> picture;
    picture.items.assign(data.begin(), data.end());
    picture.block = opt.cfg.block;
    picture.caption = fmt::format("reduction, stages 1 and 2: the tree of one block, {} {} items, {} threads",
                                  data.size(), opt.type, opt.cfg.block);
    std::ofstream svg(opt.svg);
    svg << wb::svg::reduction_tree_svg(picture);
    svg.close();
    if (!svg) throw wb::usage_error("--svg: cannot write " + opt.svg);
    fmt::print("the picture: {}\n", opt.svg);
  }

  // The kernels on the same block: one block in the first pass, so the tree above is theirs.
  const std::string root = value_text<T>(tree_sum<T>(in, opt.cfg.block));
  const config one_block{opt.cfg.block, 1};
  std::vector<wb::track> tracks{wb::track_named(opt.common.track)};
  if (opt.common.compare) tracks = {wb::track::solution, wb::track::exercise};
  bool all_agree = true;
  for (const wb::track t : tracks) {
    for (const int number : {1, 2}) {
      auto job = chapter.job(stages[static_cast<std::size_t>(number)], t, one_block);
      job.prepare();
      job.run();
      WB_CHECK(cudaDeviceSynchronize());
      const auto got = job.output();
      const bool agree = got.written && chapter.show(got) == root;
      all_agree = all_agree && agree;
      fmt::print("{} ({}) on the device, one block of {}: {}\n", wb::stage_label(stages[static_cast<std::size_t>(number)]),
                 wb::track_name(t), opt.cfg.block,
                 agree         ? chapter.show(got) + ", the tree's root"
                 : got.written ? fmt::format("{}, DIFFERS from the tree's root {}", chapter.show(got), root)
                               : fmt::format("nothing (the sum was never written); the tree's root is {}", root));
    }
  }
  return all_agree ? 0 : 1;
}

}  // namespace
