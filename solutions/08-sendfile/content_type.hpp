#pragma once
/// \file
/// Chapter 8: the Content-Type of a file, from its extension.

#include <string_view>

/// Chapter 8: serving files — paths beneath a root, sendfile(2), the handler.
namespace rdv::files {

/// The media type to send with the file called `name` (a path or a bare
/// name), chosen by its extension, ignoring ASCII case: `text/html;
/// charset=utf-8` for `index.html`, `image/png` for `logo.PNG`. Text types
/// say UTF-8; an unknown or missing extension is `application/octet-stream`,
/// which browsers download rather than guess at.
std::string_view content_type_for(std::string_view name);

}  // namespace rdv::files
