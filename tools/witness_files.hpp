// The case files a run leaves in one folder (--out, a corpus folder): each
// witness is written as soon as its failure class opens (so that a run killed
// later loses nothing it found), replaced in place by its minimised form,
// never written twice (a case with the same kernel and the same body, the
// lines that are not comments, is already there: that file is named
// instead), and never written over another run's file.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "check/io/safe_write.hpp"

namespace isect::tool {

class WitnessFiles {
public:
    /// Reads the cases already in dir (if any) for de-duplication.
    explicit WitnessFiles(std::string dir);

    /// Keeps text as the witness of `key` (a kernel and a failure class,
    /// say): the first call for a key writes a new file DIR/STEM-HASH.case,
    /// HASH of the key (STEM-HASH-2.case where another run's case has that
    /// name), later calls replace that file. kernel is the name
    /// the de-duplication compares ("signature: KERNEL|..." in older
    /// files). A failed write is kept in errors() and returned.
    check::Written keep(const std::string& key, const std::string& stem, const std::string& kernel,
                        const std::string& text);

    /// Whether keep() said the last text was already in the folder.
    bool was_duplicate() const { return duplicate_; }
    /// Whether the last keep() failed to replace this key's earlier file,
    /// which then holds its earlier text still (the witness as found).
    bool kept_earlier() const { return kept_earlier_; }

    /// Every file a write failed for, once each, with the last reason:
    /// "PATH: reason (nothing written)", or "PATH: reason; it holds ... still"
    /// where an earlier text stayed in it.
    std::vector<std::string> errors() const;

    const std::string& dir() const { return dir_; }

private:
    std::string dir_;
    std::map<std::string, std::string> by_body_;  ///< kernel + body -> file
    std::map<std::string, std::string> mine_;     ///< key -> the file this run wrote for it
    std::vector<std::string> error_paths_;         ///< in order of the first failure
    std::map<std::string, std::string> errors_;   ///< path -> its last failure
    std::map<std::string, std::set<std::string>> unwritten_;  ///< a folder's failure -> the keys it left without a file
    bool duplicate_ = false, kept_earlier_ = false;
};

/// The kernel a case file's "# signature: KERNEL|..." line names; empty
/// when it has none.
std::string signature_kernel(const std::string& text);

}  // namespace isect::tool
