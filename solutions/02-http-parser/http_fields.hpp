#pragma once
/// \file
/// Chapter 2: header fields. A field is a name and a value, both views into
/// the bytes the parser was given; a field_list keeps them in the order they
/// arrived and looks names up without regard to ASCII case.

#include "http_lines.hpp"
#include "parse_error.hpp"

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <vector>

namespace rdv::http {

/// One header (or trailer) field: `Name: value`, without the line's
/// surrounding whitespace.
struct field {
  std::string_view name;   ///< as sent: compare with iequals()
  std::string_view value;  ///< without leading and trailing whitespace
};

/// Whether `a` and `b` are equal ignoring ASCII case, as field names are.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;  // the usual answer, and a quick one
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    // Letters differ from their capitals by 0x20 alone; other bytes must be equal.
    if (x != y && !((x | 0x20) == (y | 0x20) && (x | 0x20) >= 'a' && (x | 0x20) <= 'z')) {
      return false;
    }
  }
  return true;
}

/// Whether the comma-separated `list` (a value such as `keep-alive, Upgrade`)
/// holds `token`, ignoring ASCII case and whitespace around the elements.
bool has_token(std::string_view list, std::string_view token);

/// Parses one field line (without its CRLF) into `out`, whose views point
/// into `line`. Returns why the line is not a valid field line, or none.
parse_error parse_field_line(std::string_view line, field& out);

/// Where a field sits in the parser's input: offsets, so that the input may
/// move (a buffer that grows) while a head is still incomplete.
struct field_span {
  std::uint32_t name_at;     ///< offset of the name
  std::uint32_t name_size;   ///< length of the name
  std::uint32_t value_at;    ///< offset of the value
  std::uint32_t value_size;  ///< length of the value
};

/// The fields of one head or trailer section, in order: a view that is
/// valid as long as the parser that made it and the bytes it parsed.
class field_list {
public:
  /// An empty list.
  field_list() = default;
  /// The fields `spans` of the input that starts at `base`.
  field_list(const char* base, const std::vector<field_span>& spans)
      : base_(base), spans_(spans.data()), size_(spans.size()) {}

  /// How many field lines there are.
  std::size_t size() const { return size_; }
  /// Whether there are none.
  bool empty() const { return size_ == 0; }
  /// The field at position `i` (0 is the first line).
  field operator[](std::size_t i) const {
    const field_span& s = spans_[i];
    return {{base_ + s.name_at, s.name_size}, {base_ + s.value_at, s.value_size}};
  }

  /// The value of the first field called `name`, if any.
  std::optional<std::string_view> find(std::string_view name) const;
  /// How many fields are called `name`.
  std::size_t count(std::string_view name) const;
  /// Whether a field called `name` lists `token` (see has_token()).
  bool has_token(std::string_view name, std::string_view token) const;

  /// Iterates over the fields in order, yielding `field` values.
  class iterator {
  public:
    using iterator_category = std::forward_iterator_tag;  ///< for standard algorithms
    using value_type = field;                             ///< what dereferencing yields
    using difference_type = std::ptrdiff_t;               ///< for standard algorithms
    using pointer = void;                                 ///< fields are made on the fly
    using reference = field;                              ///< a value, not a reference
    iterator() = default;                                 ///< a singular iterator
    /// The field at `at` of `list`.
    iterator(const field_list* list, std::size_t at) : list_(list), at_(at) {}
    /// The current field.
    field operator*() const { return (*list_)[at_]; }
    /// Moves to the next field.
    iterator& operator++() { return ++at_, *this; }
    /// Moves to the next field, returning the previous position.
    iterator operator++(int) { return {list_, at_++}; }
    /// Whether two iterators are at the same field.
    bool operator==(const iterator& other) const { return at_ == other.at_; }

  private:
    const field_list* list_ = nullptr;
    std::size_t at_ = 0;
  };
  /// The first field.
  iterator begin() const { return {this, 0}; }
  /// Past the last field.
  iterator end() const { return {this, size_}; }

private:
  const char* base_ = nullptr;
  const field_span* spans_ = nullptr;
  std::size_t size_ = 0;
};

/// What parsing part of a message found so far.
enum class parse_status {
  done,       ///< the part is complete
  need_more,  ///< the input ends before the part does
  failed,     ///< the part is invalid: see the parser's error
};

/// Parses field lines up to and including the blank line that ends them,
/// as input arrives: the header section of a head, or the trailer section
/// after a chunked body. Resumes where it stopped; stores offsets, not copies.
class field_block {
public:
  /// Starts a new section at offset `at` of the input; `budget` is how many
  /// bytes the section may take, blank line included, before head_too_large.
  void start(std::size_t at, std::size_t budget);
  /// Parses the lines of `input` (all of it from the message's start, the
  /// same bytes as before plus any new ones) up to the blank line.
  parse_status parse(std::string_view input, const limits& limits);
  /// The fields parsed so far, as views into `input`.
  field_list fields(std::string_view input) const { return {input.data(), spans_}; }
  /// The offset just past the blank line (once parse() returned done).
  std::size_t end() const { return lines_.line_at(); }
  /// Why parse() failed.
  parse_error error() const { return error_; }

private:
  line_reader lines_;
  std::vector<field_span> spans_;  // keeps its capacity: no allocation once warm
  std::size_t limit_ = 0;          // the offset the section must end by
  parse_error error_ = parse_error::none;
};

}  // namespace rdv::http
