// The broken siblings a case names: litmus files beside a test whose description says "broken sibling of
// NAME". They are the hand-written weakenings of the cases (the relaxed arrive, the missing proxy fence, the read
// before the wait), which `ptxmm validate` runs beside a forbidden test before trying mechanical weakenings.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "validate/Validator.hpp"

namespace ptxmm::app {

class SiblingFiles {
 public:
  /// The `.litmus` files in `file`'s folder (other than `file`) whose text names them a broken sibling of test
  /// `name`, read and parsed (a file that does not parse carries its error), in file-name order.
  std::vector<validate::GivenSibling> find(const std::string& file, const std::string& name);

 private:
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> folders_;  // folder -> (file, text), read once
};

}  // namespace ptxmm::app
