#include "wb/svg.hpp"

#include <cmath>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

namespace wb::svg {

std::string number(double value) {
  if (!std::isfinite(value)) throw std::invalid_argument("svg: a coordinate is not a finite number");
  std::string s = fmt::format("{:.3f}", value);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {
std::string attribute_text(const attributes& attrs) {
  std::string out;
  for (const auto& [name, value] : attrs) out += fmt::format(" {}=\"{}\"", name, escape(value));
  return out;
}
}  // namespace

document::document(double width, double height) : width_(width), height_(height) {
  if (!std::isfinite(width) || !std::isfinite(height) || width <= 0 || height <= 0)
    throw std::invalid_argument("svg: the picture's width and height must be positive");
}

void document::element(std::string_view name, std::string geometry, const attributes& attrs) {
  body_ += fmt::format("{}<{}{}{}/>\n", std::string(2 * (open_groups_ + 1), ' '), name, geometry, attribute_text(attrs));
}

document& document::rect(double x, double y, double w, double h, const attributes& attrs) {
  element("rect", fmt::format(" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", number(x), number(y), number(w), number(h)),
          attrs);
  return *this;
}

document& document::line(double x1, double y1, double x2, double y2, const attributes& attrs) {
  element("line", fmt::format(" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"", number(x1), number(y1), number(x2), number(y2)),
          attrs);
  return *this;
}

document& document::polyline(const std::vector<point>& points, const attributes& attrs) {
  std::string list;
  for (const auto& p : points) {
    if (!list.empty()) list += ' ';
    list += number(p.x) + ',' + number(p.y);
  }
  element("polyline", fmt::format(" points=\"{}\"", list), attrs);
  return *this;
}

document& document::path(std::string_view d, const attributes& attrs) {
  element("path", fmt::format(" d=\"{}\"", escape(d)), attrs);
  return *this;
}

document& document::circle(double cx, double cy, double r, const attributes& attrs) {
  element("circle", fmt::format(" cx=\"{}\" cy=\"{}\" r=\"{}\"", number(cx), number(cy), number(r)), attrs);
  return *this;
}

document& document::text(double x, double y, std::string_view content, const attributes& attrs) {
  body_ += fmt::format("{}<text x=\"{}\" y=\"{}\"{}>{}</text>\n", std::string(2 * (open_groups_ + 1), ' '), number(x),
                       number(y), attribute_text(attrs), escape(content));
  return *this;
}

document& document::title(std::string_view content) {
  body_ += fmt::format("{}<title>{}</title>\n", std::string(2 * (open_groups_ + 1), ' '), escape(content));
  return *this;
}

document& document::begin_group(const attributes& attrs) {
  body_ += fmt::format("{}<g{}>\n", std::string(2 * (open_groups_ + 1), ' '), attribute_text(attrs));
  ++open_groups_;
  return *this;
}

document& document::end_group() {
  if (open_groups_ == 0) throw std::logic_error("svg: end_group without begin_group");
  --open_groups_;
  body_ += fmt::format("{}</g>\n", std::string(2 * (open_groups_ + 1), ' '));
  return *this;
}

std::string document::str() const {
  if (open_groups_ != 0) throw std::logic_error("svg: a group is still open");
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n{2}</svg>\n",
      number(width_), number(height_), body_);
}

void document::save(const std::filesystem::path& file) const {
  const std::string text = str();
  std::ofstream out(file, std::ios::binary);
  if (!out || !out.write(text.data(), static_cast<std::streamsize>(text.size())))
    throw std::runtime_error("svg: cannot write " + file.string());
}

}  // namespace wb::svg
