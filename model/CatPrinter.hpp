// Renders relation-IR expressions back in cat syntax, to show users the relation an axiom rejected and to
// let tests check the parser by round trips. Definitions and base sets and relations print by name, and
// parentheses appear only where the precedence of kBinaryOperators (CatLexer.hpp) requires them.
#pragma once

#include <string>

#include "model/RelationIR.hpp"

namespace ptxmm::model {

/// `e` in cat syntax; parsing the text where `e` was defined in `model` gives the same tree.
std::string printExpr(const CatModel& model, const RelExpr& e);

}  // namespace ptxmm::model
