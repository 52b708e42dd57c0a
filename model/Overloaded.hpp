// The `overloaded` idiom for std::visit: one lambda per alternative, so a visitor that misses a node kind of
// the relation IR does not compile. (The deduction guide is needed by clang 14.)
#pragma once

namespace ptxmm::model {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace ptxmm::model
