// A tiny SVG writer for the workbook's pictures (merge paths, reduction trees, scan steps):
// plain text, no dependency. Coordinates are user units of the document's viewBox.
//
//   wb::svg::document doc(320, 200);
//   doc.rect(0, 0, 320, 200, {{"fill", "white"}});
//   doc.begin_group({{"class", "grid"}});
//   doc.line(10, 10, 310, 10, {{"stroke", "#999"}});
//   doc.end_group();
//   doc.text(20, 30, "A[i] <= B[j]", {{"font-size", "12"}});  // text is escaped
//   doc.save("picture.svg");
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wb::svg {

// Attributes in the order given: {{"fill", "none"}, {"stroke", "black"}}. Values are escaped.
using attributes = std::vector<std::pair<std::string, std::string>>;

struct point {
  double x;
  double y;
};

// A number as short as it can be written: at most 3 decimals, no trailing zeros, no "-0"
// (1 -> "1", 0.5 -> "0.5", 2.0004 -> "2"). Not-a-number and infinities are refused.
std::string number(double value);
// Text and attribute values with &, <, >, " and ' replaced by their entities.
std::string escape(std::string_view text);

class document {
 public:
  // A picture width x height user units (and pixels: width/height attributes), viewBox
  // "0 0 width height". Both must be positive and finite.
  document(double width, double height);

  document& rect(double x, double y, double width, double height, const attributes& attrs = {});
  document& line(double x1, double y1, double x2, double y2, const attributes& attrs = {});
  document& polyline(const std::vector<point>& points, const attributes& attrs = {});
  document& path(std::string_view d, const attributes& attrs = {});
  document& circle(double cx, double cy, double r, const attributes& attrs = {});
  document& text(double x, double y, std::string_view content, const attributes& attrs = {});
  document& title(std::string_view content);  // a <title> (tooltip / accessible name)
  document& begin_group(const attributes& attrs = {});
  document& end_group();

  double width() const { return width_; }
  double height() const { return height_; }
  // The whole document; throws std::logic_error while a group is open.
  std::string str() const;
  // Writes str() to a file; throws std::runtime_error naming the path if it cannot.
  void save(const std::filesystem::path& file) const;

 private:
  void element(std::string_view name, std::string geometry, const attributes& attrs);
  double width_;
  double height_;
  int open_groups_ = 0;
  std::string body_;
};

}  // namespace wb::svg
