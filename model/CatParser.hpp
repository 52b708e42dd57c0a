// The cat reader: turns a model written in ptxmm's subset of herd7's cat language into the relation IR
// (RelationIR.hpp), resolving every name and checking every type at parse time, so consumers never see an
// unknown name or a set where a relation belongs.
//
// The subset:
//   model      := [title] statement*              title: a "string" or a bare name, recorded in CatModel::title
//   statement  := 'let' binding ('and' binding)*  simultaneous: right-hand sides see only earlier definitions
//               | 'let' 'rec' binding ('and' binding)*   mutually recursive relations, one RecGroup
//               | ['flag'] ['~'] ('acyclic' | 'irreflexive' | 'empty') expr ['pairwise' expr] 'as' NAME
//               | 'include' "file.cat"          relative to the including file, then to PTXMM_MODEL_DIR
//   binding    := NAME '=' expr
//   expr, loosest to tightest:  e | e   e ; e   e \ e   e & e   S * T   ~e   e^-1 e+ e* e? (also ^+ ^* ^?)
//   primary    := NAME | 0 | _ | ( expr ) | [ set ] | domain( rel ) | range( rel )
// A `*` is the cartesian product when an operand follows it, the reflexive-transitive closure otherwise.
// Names resolve to the latest definition (or a member of the rec group being defined), else a base relation,
// else a base set (Vocabulary.hpp). A literal 0 takes the type its context needs, a relation by default.
// Other herd7 constructs (show, procedure, functions, ...) are rejected with an error that names them.
#pragma once

#include <string>
#include <string_view>

#include "model/RelationIR.hpp"

namespace ptxmm::model {

/// Parses a cat model from text; `file` names it in diagnostics and anchors `include` paths.
/// Throws UserError, located at the offending token, on any error in the text or an included file.
CatModel parseCat(std::string_view text, const std::string& file);

/// Reads and parses a cat file (UserError with position 0:0 if it cannot be opened).
CatModel parseCatFile(const std::string& path);

}  // namespace ptxmm::model
