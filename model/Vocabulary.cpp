// Tables behind the vocabulary lookups declared in Vocabulary.hpp.
#include "model/Vocabulary.hpp"

namespace ptxmm::model {
namespace {

constexpr std::array<TagInfo, kTagCount> kTags = {{
#define PTXMM_ROW(name, meaning) {#name, meaning},
    PTXMM_TAGS(PTXMM_ROW)
#undef PTXMM_ROW
}};

constexpr std::array<BaseRelInfo, kBaseRelCount> kBaseRels = {{
#define PTXMM_ROW(cat, name, stage, meaning) {cat, Stage::stage, meaning},
    PTXMM_BASE_RELATIONS(PTXMM_ROW)
#undef PTXMM_ROW
}};

struct ScopeRow {
  Scope scope;
  std::string_view name;
  std::optional<Tag> tag;
};
constexpr std::array<ScopeRow, 5> kScopes = {{
    {Scope::Thread, "", std::nullopt},
    {Scope::Cta, "cta", Tag::CTA},
    {Scope::Cluster, "cluster", Tag::CLUSTER},
    {Scope::Gpu, "gpu", Tag::GPU},
    {Scope::Sys, "sys", Tag::SYS},
}};

struct ProxyRow {
  Proxy proxy;
  Tag tag;
  std::string_view name;
};
constexpr std::array<ProxyRow, 6> kProxies = {{
#define PTXMM_ROW(name, tag, spelling) {Proxy::name, Tag::tag, spelling},
    PTXMM_PROXIES(PTXMM_ROW)
#undef PTXMM_ROW
}};

}  // namespace

const TagInfo& tagInfo(Tag tag) { return kTags[static_cast<std::size_t>(tag)]; }
const BaseRelInfo& baseRelInfo(BaseRel rel) { return kBaseRels[static_cast<std::size_t>(rel)]; }

std::optional<Tag> findTag(std::string_view name) {
  for (std::size_t i = 0; i < kTags.size(); ++i)
    if (kTags[i].name == name) return static_cast<Tag>(i);
  return std::nullopt;
}

std::optional<BaseRel> findBaseRel(std::string_view name) {
  for (std::size_t i = 0; i < kBaseRels.size(); ++i)
    if (kBaseRels[i].name == name) return static_cast<BaseRel>(i);
  return std::nullopt;
}

std::string_view scopeName(Scope scope) { return kScopes[static_cast<std::size_t>(scope)].name; }

std::optional<Scope> findScope(std::string_view name) {
  for (const auto& row : kScopes)
    if (!row.name.empty() && row.name == name) return row.scope;
  return std::nullopt;
}

std::optional<Tag> scopeTag(Scope scope) { return kScopes[static_cast<std::size_t>(scope)].tag; }

Tag proxyTag(Proxy proxy) { return kProxies[static_cast<std::size_t>(proxy)].tag; }
std::string_view proxyName(Proxy proxy) { return kProxies[static_cast<std::size_t>(proxy)].name; }

std::optional<Proxy> findProxy(std::string_view name) {
  for (const auto& row : kProxies)
    if (row.name == name) return row.proxy;
  return std::nullopt;
}

}  // namespace ptxmm::model
