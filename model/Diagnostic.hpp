// User-facing errors. A user error (bad input, bad option) always carries a source position and is printed as
// `file:line:col: error: message`; internal bugs are assertions and never use this type.
#pragma once

#include <stdexcept>
#include <string>

namespace ptxmm::model {

struct SourcePos {
  std::string file;
  int line = 0;
  int col = 0;
};

/// An error in user input, located in a file.
class UserError : public std::runtime_error {
 public:
  UserError(SourcePos pos, const std::string& message)
      : std::runtime_error(format(pos, message)), pos_(std::move(pos)), message_(message) {}

  const SourcePos& pos() const { return pos_; }
  const std::string& message() const { return message_; }

  /// The `file:line:col: error: message` rendering.
  static std::string format(const SourcePos& pos, const std::string& message) {
    return pos.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.col) + ": error: " + message;
  }

 private:
  SourcePos pos_;
  std::string message_;
};

}  // namespace ptxmm::model
