// Writes that cannot lie. Every file isect leaves behind (a witness case, a
// map, its data) is written to a temporary file in the folder it belongs in,
// checked, flushed to disk and then renamed into place: a reader sees the
// whole file or none, a full disk or an unwritable folder is an error that
// names the path and the reason, and nothing is reported as written that was
// not. New files never replace someone else's: two runs sharing a folder
// each keep their own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace isect::check {

/// Where a write went, or why it did not.
struct Written {
    std::string path;   ///< the file written (or that would have been)
    std::string error;  ///< empty on success; else "PATH: reason"
    bool ok() const { return error.empty(); }
};

/// Whether a write flushes its folder's entry (the new name) to disk before
/// it returns, or leaves that to a sync_folder() its caller makes once for
/// many files (a run's witnesses: one flush of the folder, not one a file).
/// The file's own bytes are flushed before its name appears, either way.
enum class FolderSync { now, by_caller };

/// Replaces path's content with text, atomically: temp file in the same
/// folder, write, check, fsync, rename. The folder must exist.
Written write_file_atomic(const std::string& path, const std::string& text, FolderSync sync = FolderSync::now);

/// Writes a new file DIR/STEM.EXT (creating DIR), or DIR/STEM-2.EXT,
/// DIR/STEM-3.EXT... when that name is taken: never replaces a file. ext
/// includes its dot (".case"). Where nothing could be written before a name
/// was chosen (a full disk), path is empty and the error names DIR.
Written write_file_new(const std::string& dir, const std::string& stem, const std::string& ext,
                       const std::string& text, FolderSync sync = FolderSync::now);

/// Flushes a folder's entries (renames, new names) to disk; best effort.
void sync_folder(const std::string& dir);

/// Creates dir (and its parents) and proves a file can be written, flushed
/// and removed there. Empty when it can; else one line naming dir and why.
std::string probe_folder(const std::string& dir);

/// The text of a case file less its comment lines: two witnesses with the
/// same body are the same case, whatever their origin says.
std::string case_body(const std::string& text);

/// What a case file's "signature: " line says (its failure class,
/// ClassKey::str()), whether the line is a comment ("# signature: ...") or
/// a case's origin; empty when it has none.
std::string signature_of(const std::string& text);

/// A 32-bit hash of bytes (FNV-1a), for file names that must be the same
/// from run to run.
uint32_t name_hash(std::string_view bytes);

/// Any text as a file name's stem: letters, digits, '-' and '_' only,
/// never a leading '-' (an option to the next command), never empty, and
/// at most 120 characters (a long text's tail becomes a hash of it).
std::string file_stem(std::string s);

/// Reads a whole file; empty when it cannot.
std::string read_text_file(const std::string& path);

}  // namespace isect::check
