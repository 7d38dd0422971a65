#pragma once
/// \file
/// Showing bytes in failure messages: escaped, quoted, and ready to paste into a shell.

#include <string>
#include <string_view>

namespace rdv::test {

/// `bytes` as a double-quoted C string: `"GET / HTTP/1.1\r\n"`, non-printable bytes as \xNN.
/// (Not called `quoted`: for a std::string argument, argument-dependent lookup
/// would find std::quoted of <iomanip>, which some standard libraries include
/// along with other headers, and prefer it.)
std::string in_quotes(std::string_view bytes);

/// A shell command that sends `bytes` to 127.0.0.1:`port` and prints the answer:
/// `printf 'GET / HTTP/1.1\r\n\r\n' | nc -q 2 127.0.0.1 8081`.
std::string printf_nc(std::string_view bytes, unsigned port);

/// Says where `actual` first differs from `expected`, showing both around that
/// byte with a caret under it; "" when they are equal.
std::string first_difference(std::string_view expected, std::string_view actual);

}  // namespace rdv::test
