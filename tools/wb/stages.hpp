// The stages of the build's chapters (wb_chapters.hpp): a stage by its name ("merge/2"), its
// exercise files, and the files its code uses.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "wb_chapters.hpp"

namespace wbtool {

struct stage_ref {
  const chapter_table* chapter = nullptr;
  const wb::stage* stage = nullptr;

  // "merge/2": the suite's first word.
  std::string id() const;
  // "exercises/merge/basic.cu", relative to the source folder.
  std::vector<std::string> files() const;
};

// The exercise files a stage's code uses: its own files and, transitively, the files of the
// chapter's exercise folder they #include ("exercises/merge/tiled.cu" includes co_rank.cuh, the
// file of merge/1). Paths relative to the source folder.
std::set<std::string> files_used(const stage_ref& s);

// Every stage of the build, chapter by chapter, in order.
std::vector<stage_ref> all_stages();

// A chapter by name; a usage_error naming the build's chapters when there is none.
const chapter_table& find_chapter(const std::string& name);

// "merge/2" (or "merge/2 basic", the suite name); a usage_error when there is no such stage.
stage_ref find_stage(const std::string& text);

}  // namespace wbtool
