#pragma once
/// \file
/// Chapter 9: the resource the server offers — the course's chapters, each
/// with a title and a status — and its two representations, JSON and XML.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdv::rest {

/// One chapter of the course, as the resource `/chapters/NN` describes it.
struct chapter {
  std::string number;  ///< two digits: "03"
  std::string title;   ///< "Processes"
  std::string status;  ///< "todo", "doing" or "done": the reader's own progress
};

/// Whether `status` is one a chapter may have.
bool is_valid_status(std::string_view status);

/// The collection `/chapters`: the course's chapters in order.
class chapter_catalog {
public:
  /// The eleven chapters of the course, every one "todo".
  chapter_catalog();

  /// All chapters, in order.
  const std::vector<chapter>& all() const { return chapters_; }
  /// The chapter numbered `number` ("03"), or nullptr.
  const chapter* find(std::string_view number) const;
  /// Sets the status of chapter `number`; false if there is no such chapter.
  bool set_status(std::string_view number, std::string status);

private:
  std::vector<chapter> chapters_;
};

/// `/chapters/NN` as JSON: `{"number":"03","title":"...","status":"todo","href":"/chapters/03"}`.
std::string to_json(const chapter& c);
/// `/chapters` as JSON: `{"chapters":[...],"href":"/chapters"}`.
std::string to_json(const std::vector<chapter>& all);
/// `/chapters/NN` as XML: `<chapter number="03" href="/chapters/03"><title>...</title>...`.
std::string to_xml(const chapter& c);
/// `/chapters` as XML: `<chapters href="/chapters"><chapter .../>...</chapters>`.
std::string to_xml(const std::vector<chapter>& all);

/// The status a client sent in a PUT body, in either representation:
/// `{"status":"done"}` or `<chapter><status>done</status></chapter>`.
/// std::nullopt if the body does not parse or has no valid status.
std::optional<std::string> status_from_json(std::string_view body);
/// \copydoc status_from_json
std::optional<std::string> status_from_xml(std::string_view body);

}  // namespace rdv::rest
