#pragma once
/// \file
/// Chapter 10: the reply port's side of the rendezvous — reading a worker's
/// reply, and handing it to the process that holds the client.

#include "hold.hpp"
#include "http_fields.hpp"
#include "request_id.hpp"
#include "web.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace rdv::hub {

/// Reads a worker's reply — the header fields and body of its
/// `POST /reply/<id>` — into `out`, the response the client is to get.
/// With `Content-Type: message/http`, the body is a whole HTTP/1.1 response:
/// its status, reason, end-to-end header fields and body (decoded) are
/// taken. With any other Content-Type, the body is the body, with that
/// Content-Type and the status in `X-Hub-Status` (200 if absent). Either
/// way the status must be a final one (200-599), and a 204 or 304 must have
/// no body. Returns what is wrong with the reply (the worker gets 400), or
/// nothing if it is valid.
std::optional<std::string> read_reply(const http::field_list& fields, std::string_view body,
                                      web::response& out);

/// Reads `message`, a whole HTTP/1.1 response as a message/http reply
/// carries it, into `out`: its status (a final one), reason, end-to-end
/// header fields and body. Returns what is wrong with it, or nothing.
/// read_reply() uses it, and chapter 11 for the replies other hubs route.
std::optional<std::string> read_http_message(std::string_view message, web::response& out);

/// Hands `answer` to the process registered as `id` and returns its
/// verdict: taken if that process took it for its client (the worker gets
/// 204); not_waiting if no process has the name, or the one that had it
/// refused it or ended first (404). Call it in a process.
verdict deliver(const request_id& id, web::response answer);

/// Whether `fields` hold `Authorization: Bearer <token>`. The token is
/// compared in constant time, so that timing does not reveal it.
bool authorized(const http::field_list& fields, std::string_view token);

}  // namespace rdv::hub
