#include "router.hpp"

#include "http_fields.hpp"
#include "negotiation.hpp"

#include <algorithm>

namespace rdv::rest {

std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

std::string allow_field(const std::vector<std::string_view>& methods) {
  std::string out;
  for (const auto method : methods) {
    if (!out.empty()) out += ", ";
    out += method;
  }
  return out;
}

//! [mount]
void router::mount(std::string prefix, std::shared_ptr<resource> r) {
  mounts_.emplace_back(std::move(prefix), std::move(r));
  // Longest prefix first, so that "/chapters/old" wins over "/chapters".
  std::stable_sort(mounts_.begin(), mounts_.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

resource* router::find(std::string_view path) const {
  for (const auto& [prefix, r] : mounts_) {
    // "/chapters" matches "/chapters" and "/chapters/03", not "/chaptersX".
    if (path.starts_with(prefix) && (path.size() == prefix.size() || path[prefix.size()] == '/')) {
      return r.get();
    }
  }
  return nullptr;
}
//! [mount]

std::vector<std::string_view> router::server_methods() const {
  std::vector<std::string_view> all{"OPTIONS"};
  for (const auto& [prefix, r] : mounts_) {
    for (const auto method : r->methods(prefix)) {
      if (std::find(all.begin(), all.end(), method) == all.end()) all.push_back(method);
    }
  }
  return all;
}

namespace {

// The answer to OPTIONS on a resource: what it allows, and what it offers.
web::response options_answer(const std::vector<std::string_view>& allowed,
                             const std::vector<std::string_view>& offered) {
  web::response r;
  r.fields.emplace_back("Allow", allow_field(allowed));
  r.fields.emplace_back("Content-Type", "text/plain; charset=utf-8");
  for (const auto type : offered) {
    r.body += type;
    r.body += '\n';
  }
  return r;
}

}  // namespace

//! [handle]
web::response router::handle(web::request& request) {
  const auto method = request.head.method;
  if (request.head.target == "*") {  // OPTIONS * asks about the server, not a resource
    if (method != "OPTIONS") return web::text_response(400, "only OPTIONS may name *\n");
    web::response r;
    r.status = 204;
    r.fields.emplace_back("Allow", allow_field(server_methods()));
    return r;
  }
  // EXERCISE ch09.4: do what every resource needs before the resource answers
  // HINT: Which status when nothing is mounted at the path, or the resource
  //       says it does not exist? Which when the method is not allowed, and
  //       which header field must come with it?
  // HINT: OPTIONS is answered here, for every resource. For the other
  //       methods, negotiate() picks the representation; what if it picks none?
  // STUB: (void)method; (void)&options_answer;
  const auto path = path_of(request.head.target);
  resource* const target = find(path);
  const auto allowed = target ? target->allowed(path) : std::vector<std::string_view>{};
  if (allowed.empty()) return web::text_response(404);
  if (std::find(allowed.begin(), allowed.end(), method) == allowed.end()) {
    web::response r = web::text_response(405);
    r.fields.emplace_back("Allow", allow_field(allowed));
    return r;
  }
  const auto offered = target->representations(path);
  if (method == "OPTIONS") return options_answer(allowed, offered);
  std::optional<accept_list> accept;  // its field lines, in order, are one list
  for (const auto field : request.head.fields) {
    if (!http::iequals(field.name, "Accept")) continue;
    accept_list more = parse_accept(field.value);
    if (!accept) accept.emplace();
    accept->malformed = accept->malformed || more.malformed;
    for (auto& range : more.ranges) accept->ranges.push_back(std::move(range));
  }
  const auto chosen = negotiate(accept, offered);
  if (!chosen) {  // 406 says what would have been acceptable
    web::response r = options_answer(allowed, offered);
    r.status = 406;
    r.fields.emplace_back("Vary", "Accept");
    return r;
  }
  web::response r = target->respond(request, path, offered[*chosen]);
  const bool typed = std::any_of(r.fields.begin(), r.fields.end(), [](const auto& f) {
    return http::iequals(f.first, "Content-Type");
  });
  if (!typed) r.fields.emplace_back("Content-Type", std::string(offered[*chosen]));
  r.fields.emplace_back("Vary", "Accept");
  return r;
  // END EXERCISE
}
//! [handle]

}  // namespace rdv::rest
