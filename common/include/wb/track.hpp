// The two tracks of a chapter: the solution (solutions/<chapter>/) and the learner's exercise
// (exercises/<chapter>/). Both implement the declarations of chapters/<chapter>/track_interface.inl,
// which the chapter's header includes once inside namespace <chapter>::solution and once inside
// <chapter>::exercise, so both link into one executable (--track, --compare).
//
// Code that picks a track's functions names the track's namespace through WB_WITH_TRACK:
//
//   WB_WITH_TRACK(scan, t, {
//     tr::scan_single_pass<T>(in, out, n, ws, cfg);   // tr is scan::solution or scan::exercise
//   });
//
// `t` is a wb::track chosen at run time (the executable: both tracks are linked) or a
// wb::track_constant<...> known at compile time (a test binary, linked with one track: the other
// track's branch is never instantiated). The statements run inside a lambda: `return x;` returns
// x from it, and WB_WITH_TRACK(...) is that value.
#pragma once

#include <string>
#include <type_traits>

namespace wb {

enum class track { solution, exercise };

template <track T>
using track_constant = std::integral_constant<track, T>;

inline const char* track_name(track t) { return t == track::exercise ? "exercise" : "solution"; }
// "solution" or "exercise" (what --track accepts) to the track; anything else is the solution.
inline track track_named(const std::string& name) { return name == "exercise" ? track::exercise : track::solution; }

// Calls body(track_constant<T>{}) for the track t: code templated on the track, chosen at run time.
template <class Body>
decltype(auto) with_track(track t, Body&& body) {
  if (t == track::exercise) return body(track_constant<track::exercise>{});
  return body(track_constant<track::solution>{});
}
// ... and for a track known at compile time: only that track's code is instantiated.
template <track T, class Body>
decltype(auto) with_track(track_constant<T> t, Body&& body) {
  return body(t);
}

}  // namespace wb

#define WB_WITH_TRACK(chapter, which, ...)                                        \
  ::wb::with_track((which), [&](auto wb_track_) {                                 \
    if constexpr (decltype(wb_track_)::value == ::wb::track::solution) {          \
      namespace tr = ::chapter::solution;                                         \
      __VA_ARGS__                                                                 \
    } else {                                                                      \
      namespace tr = ::chapter::exercise;                                         \
      __VA_ARGS__                                                                 \
    }                                                                             \
  })
