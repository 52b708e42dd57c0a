// Writing what the user asked for without losing it silently: JSON whose strings may hold any bytes (file and test
// names are not always UTF-8), files written whole or not at all (a report shared by concurrent runs is never
// torn), and a located error when a file or standard output cannot be written (issue 16 C5, U1, U5).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace ptxmm::app {

/// `j` as text (`indent` as nlohmann's dump); bytes that are not UTF-8 become U+FFFD instead of an exception.
std::string jsonText(const nlohmann::json& j, int indent = -1);

/// Writes `text` into `path` through a temporary file in the same folder renamed over it, so readers see the old
/// or the new file, never a part. Throws UsageError naming the path and the system's reason when it cannot.
void writeFileAtomically(const std::string& path, const std::string& text);

/// Flushes standard output; throws UsageError when what was written could not be (a full disk, a closed pipe).
void flushStandardOutput();

}  // namespace ptxmm::app
