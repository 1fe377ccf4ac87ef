#include "check/engine/findings.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "check/engine/relation.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/io/interrupt.hpp"

namespace isect::check {

namespace fs = std::filesystem;

bool minimised_kind(FailureKind kind) {
    return kind != FailureKind::crash && kind != FailureKind::hang && kind != FailureKind::garbage;
}

void minimise_class(const Family& f, const FamilyKernel& k, FailureClass& c, const Domain& domain) {
    const std::vector<FamilyKernel> one{k};
    const auto in_class = [&](const Inputs& t, Oracle oracle) -> std::optional<std::pair<Truth, FamilyJudgement>> {
        CaseJudge judge(f, one, t, oracle, false);
        const CaseJudge::FastViolation* fast = judge.fast_violation(0);
        const bool trusted = judge.needs_references() && judge.fast_decides_all();
        if (trusted) judge.trust_fast();
        if (trusted || oracle == Oracle::slow || !judge.finish_on_first_reference()) judge.finish();
        if (!judge.disagreement().empty() || !judge.judgements()[0].violates) return std::nullopt;
        const ClassKey key = trusted ? fast->key : violation_class(f, k, t, judge.truth(), judge.judgements()[0]);
        if (key != c.key) return std::nullopt;
        return std::make_pair(judge.truth(), judge.judgements()[0]);
    };
    c.witness = minimise_witness(f, domain, c.found, [&](const Inputs& t) { return in_class(t, Oracle::fast).has_value(); });
    c.why = c.found_why;
    c.truth.reset();
    std::optional<std::pair<Truth, FamilyJudgement>> confirmed = in_class(c.witness, Oracle::slow);
    if (!confirmed && c.witness != c.found) {
        c.witness = c.found;
        confirmed = in_class(c.witness, Oracle::slow);
    }
    if (confirmed) {
        c.why = confirmed->second.why;
        c.truth = confirmed->first;
        // A wrong answer: how near the witness is to one whose exact answer
        // is the kernel's, from below (the band) and from above (an input
        // found so).
        const FamilyJudgement& j = confirmed->second;
        if (j.answer_differs && !j.failure && within_grace()) {
            c.band_k = measured_k(f, c.witness, confirmed->first);
            if (const std::optional<Perturbation> p = flipping_perturbation(f, c.witness, j.got.answer, c.band_k)) {
                c.witnessed_k = p->k;
                c.perturbed = p->input;
            }
        }
    }
    c.minimised = within_grace();  // cut short by a signal: as found, or part way
}

void minimise_relation_class(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                             FailureClass& c, const Domain& domain) {
    // A leak found on the user's mesh stays there: shrunk off it, the case
    // would be judged against neighbours the relation builds, not the
    // mesh's, and the witness would be another finding.
    const auto& on_mesh = f.shared_edges.mesh_triangle;
    const bool keep_on_mesh = rel.kind == Relation::Kind::watertight && on_mesh && on_mesh(c.found.data());
    const auto same_class = [&](const Inputs& t) {
        if (keep_on_mesh && on_mesh(t.data()) != on_mesh(c.found.data())) return false;
        const std::optional<RelationBreak> b = judge_relation(f, rel, kernels, t);
        return b && b->key == c.key;
    };
    c.witness = minimise_witness(f, domain, c.found, same_class);
    c.why = c.found_why;
    c.truth.reset();
    if (const std::optional<RelationBreak> b = judge_relation(f, rel, kernels, c.witness)) {
        c.why = b->why;
        c.truth = b->truth;
    }
    c.minimised = within_grace();
}

FailureClass class_of(const Finding& found, const Inputs& in) {
    FailureClass c;
    c.key = found.key;
    c.count = 1;
    c.witness = c.found = in;
    c.why = c.found_why = found.message;
    c.truth = found.truth;
    return c;
}

bool minimise_finding(const Family& f, const std::vector<FamilyKernel>& kernels, const Finding& found, FailureClass& c,
                      const Domain& domain) {
    if (!minimised_kind(c.key.kind)) return false;
    if (found.relation) minimise_relation_class(f, *found.relation, kernels, c, domain);
    else if (found.kernel_index) minimise_class(f, kernels[*found.kernel_index], c, domain);
    else return false;
    return true;
}

std::string finding_case(const Family& f, const FailureClass& c, const FindingOrigin& origin,
                         std::optional<RelationKind> relation, const std::vector<std::array<double, 9>>& neighbours) {
    std::string text = origin.run + "\n";
    if (!origin.place.empty())
        text += origin.place + ", " + std::to_string(c.count) + " violation" + (c.count == 1 ? "" : "s") + ": ";
    text += c.key.describe() + (c.minimised ? ", minimised" : ", as found") + "\n" + c.why;
    if (!origin.note.empty()) text += "\n" + origin.note;
    text += "\nsignature: " + c.key.str();
    return format_family_case(f, c.witness, text, c.truth, relation, neighbours);
}

std::string FindingKey::str() const {
    switch (of) {
        case Of::kernel_class: return family + "|" + std::to_string(kernel) + "|" + key.str();
        case Of::relation_class: return family + "|relation|" + key.str();
        case Of::hang: return family + "|" + std::to_string(kernel) + "|hang";
        case Of::references: return family + "|references";
    }
    return family;
}

std::string signature_kernel(const std::string& text) {
    const auto key = ClassKey::parse(signature_of(text));
    return key ? key->kernel : "";
}

FindingFiles::~FindingFiles() {
    if (unsynced_) sync_folder(dir_);
}

FindingFiles::FindingFiles(std::string dir) : dir_(std::move(dir)) {
    std::error_code ec;
    if (!fs::is_directory(dir_, ec)) return;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".case" || !it->is_regular_file(ec)) continue;
        const std::string text = read_text_file(it->path().string());
        by_body_.emplace(signature_kernel(text) + "\n" + case_body(text), it->path().string());
    }
}

std::vector<std::string> FindingFiles::errors() const {
    std::vector<std::string> out;
    for (const std::string& where : error_paths_) {
        const auto n = unwritten_.find(where);
        if (n == unwritten_.end()) {
            out.push_back(errors_.at(where));
            continue;
        }
        const std::string& e = errors_.at(where);
        const size_t count = n->second.size();
        out.push_back(e.substr(0, e.rfind(" (nothing written)")) + ": " + std::to_string(count) + " witness" +
                      (count == 1 ? "" : "es") + " not written (" + (count == 1 ? "its class says" : "their classes say") +
                      " NOT SAVED)");
    }
    return out;
}

Written FindingFiles::keep(const FindingKey& finding, const std::string& stem, const std::string& kernel,
                           const std::string& text) {
    const std::string key = finding.str();
    duplicate_ = false;
    kept_earlier_ = false;
    const std::string body = kernel + "\n" + case_body(text);
    const auto mine = mine_.find(key);
    if (const auto same = by_body_.find(body); same != by_body_.end()) {
        // This key's own file already says it: nothing to write again.
        if (mine != mine_.end() && mine->second == same->second) return {same->second, ""};
        // Already there: name that file; drop this run's own earlier one.
        if (mine != mine_.end() && mine->second != same->second) {
            std::remove(mine->second.c_str());
            mine_.erase(mine);
        }
        duplicate_ = true;
        return {same->second, ""};
    }
    Written w;
    if (mine != mine_.end()) {
        w = write_file_atomic(mine->second, text, FolderSync::by_caller);
        if (w.ok())
            for (auto it = by_body_.begin(); it != by_body_.end(); ++it)
                if (it->second == w.path) {
                    by_body_.erase(it);
                    break;
                }
    } else {
        // Named for its key (the class), so that the same class has the same
        // file name whatever the number of workers or the order classes
        // opened in; a file of that name holding this very case (another
        // run beside this one wrote it) is not written again.
        char tail[16];
        std::snprintf(tail, sizeof tail, "-%08x", name_hash(key));
        const std::string name = file_stem(stem) + tail;
        const fs::path there = fs::path(dir_) / (name + ".case");
        std::error_code ec;
        const std::string theirs = fs::exists(there, ec) ? read_text_file(there.string()) : "";
        if (!theirs.empty() && kernel + "\n" + case_body(theirs) == body) {
            duplicate_ = true;
            by_body_.emplace(body, there.string());
            return {there.string(), ""};
        }
        // The same class of the same run (its name holds the seed, its
        // signature the class) from a run beside this one: one file, the
        // latest witness in it. Anything else keeps its own file.
        const std::string signature = signature_of(text);
        if (!theirs.empty() && !signature.empty() && signature_of(theirs) == signature) {
            w = write_file_atomic(there.string(), text, FolderSync::by_caller);
            if (w.ok()) mine_[key] = w.path;
        } else {
            w = write_file_new(dir_, name, ".case", text, FolderSync::by_caller);
            // Another run of the same class took the name a moment before:
            // one file, not two.
            if (w.ok() && w.path != there.string() && theirs.empty() && !signature.empty() &&
                signature_of(read_text_file(there.string())) == signature) {
                std::remove(w.path.c_str());
                w = write_file_atomic(there.string(), text, FolderSync::by_caller);
            }
            if (w.ok()) mine_[key] = w.path;
        }
    }
    if (w.ok()) {
        unsynced_ = true;
        by_body_.emplace(body, w.path);
        if (errors_.erase(w.path))  // written after all: no longer an error
            error_paths_.erase(std::find(error_paths_.begin(), error_paths_.end(), w.path));
        return w;
    }
    if (mine != mine_.end()) {
        // The replacement failed; the earlier text (the witness as found) is
        // whole in its place, as atomic writes leave it.
        kept_earlier_ = true;
        const std::string reason = w.error.substr(0, w.error.rfind(" (nothing written)"));
        w.error = reason + "; the file holds the witness as found, not its minimised form";
    }
    // One line per file; the witnesses no file was made for, one line per
    // folder and reason, counted (errors()).
    const std::string where = w.path.empty() ? "new: " + w.error : w.path;
    if (w.path.empty()) unwritten_[where].insert(key);
    if (!errors_.count(where)) error_paths_.push_back(where);
    errors_[where] = w.error;
    return w;
}

Written FindingFiles::keep_class(const Family& f, const FindingKey& key, const std::string& stem, FailureClass& c,
                                 const FindingOrigin& origin, std::optional<RelationKind> relation,
                                 const std::vector<std::array<double, 9>>& neighbours) {
    const Written w = keep(key, stem, c.key.kernel, finding_case(f, c, origin, relation, neighbours));
    c.case_path = w.ok() || kept_earlier() ? w.path : "";
    if (!w.ok() && kept_earlier()) {
        c.minimised = false;  // what the file holds
        const std::string reason = w.error.substr(w.error.find(": ") + 2);
        c.case_note = "its minimised form could not be written: " + reason.substr(0, reason.find(';'));
    }
    return w;
}

namespace {

/// The signatures already in a folder ("signature: ..." in a case's
/// origin), each with the case that has it.
std::map<std::string, std::string> known_signatures(const std::string& dir) {
    std::map<std::string, std::string> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".case") continue;
        if (const std::string s = signature_of(read_text_file(it->path().string())); !s.empty())
            out.emplace(s, it->path().string());
    }
    return out;
}

}  // namespace

CampaignFindings::CampaignFindings(const Family& f, const std::vector<FamilyKernel>& kernels,
                                   const std::vector<Relation>& relations, const Domain& domain, const std::string& folder,
                                   std::string origin, FamilyCheckReport& report)
    : f_(f),
      kernels_(kernels),
      relations_(relations),
      domain_(domain),
      origin_(std::move(origin)),
      report_(report),
      files_(folder),
      known_(known_signatures(folder)),
      witness_files_(kernels.size()) {
    report_.family = f.name;
    for (const FamilyKernel& k : kernels) report_.kernels.push_back(kernel_report_for(k));
    for (const Relation& rel : relations) report_.relations.push_back(relation_report_for(rel, kernels));
}

CampaignFindings::Taken CampaignFindings::take(const Inputs& input) {
    Taken out;
    std::optional<Finding> found;
    try {
        found = fuzz_one(f_, kernels_, input, true, nullptr, &relations_);
    } catch (const std::exception&) {
    }
    if (!found) return out;
    // Whose finding: a kernel's, a relation's, or the references'.
    const Relation* rel = found->relation;
    const size_t index = found->kernel_index.value_or(0);
    const std::optional<RelationKind> relation = rel ? std::optional<RelationKind>(rel->kind) : std::nullopt;

    FailureClass c = class_of(*found, input);
    // The kept input judged once, as every check judges a case: each kernel,
    // by the references; its file and its count stand on that. A finding the
    // folder has is kept as found: the judgement that found it (the
    // references on every input) is that judgement.
    std::optional<CaseJudge> judged;
    const Truth* truth = nullptr;
    const std::vector<FamilyJudgement>* judgements = nullptr;
    std::string disagreement;
    const auto judge_witness = [&] {
        judged.emplace(f_, kernels_, c.witness, Oracle::slow, false);
        judged->finish();
        truth = &judged->truth();
        judgements = &judged->judgements();
        disagreement = judged->disagreement();
    };
    if (const auto at = known_.find(found->key.str()); at != known_.end()) {
        ++duplicates_;
        out.fate = Taken::Fate::duplicate;
        out.path = at->second;
        if (found->truth && found->judgements.size() == kernels_.size()) {
            truth = &*found->truth;
            judgements = &found->judgements;
        } else {
            judge_witness();
        }
    } else {
        // As found first (a second signal loses nothing), then minimised in its place.
        const FindingKey key{f_.name, rel ? FindingKey::Of::relation_class : FindingKey::Of::kernel_class, index, c.key};
        char hash[9];
        std::snprintf(hash, sizeof hash, "%08x", name_hash(c.key.str()));
        const std::string stem = "fuzz-" + file_stem(c.key.kernel.substr(0, 80)) + "-" + hash;
        const FindingOrigin origin{origin_, "", ""};
        Written w = files_.keep_class(f_, key, stem, c, origin, relation);
        const bool minimised = minimise_finding(f_, kernels_, *found, c, domain_);
        judge_witness();
        if (w.ok() && minimised) w = files_.keep_class(f_, key, stem, c, origin, relation);
        if (!w.ok()) {
            out.fate = Taken::Fate::not_saved;
            out.line = w.error;
            return out;
        }
        out.path = w.path;
        known_.emplace(c.key.str(), w.path);
        if (files_.was_duplicate()) {
            ++duplicates_;
            out.fate = Taken::Fate::duplicate;
        } else {
            written_.insert(w.path);
            ++new_cases_;
            out.fate = Taken::Fate::new_case;
            out.line = "kernel " + c.key.kernel + " (" + c.key.contract + "): " + c.why;
        }
    }
    if (!disagreement.empty()) {
        if (!report_.reference_mismatches++) {
            report_.mismatch = c.witness;
            report_.mismatch_message = disagreement;
            mismatch_path_ = out.path;
        }
        return out;
    }
    ++report_.reference_cases;
    for (size_t i = 0; i < kernels_.size(); ++i) {
        const FailureClass* fc = tally_judgement(f_, kernels_[i], report_.kernels[i], c.witness, *truth, (*judgements)[i], 0);
        if (fc && fc->witness == c.witness) witness_files_[i][fc->key.str()] = out.path;
    }
    if (rel)
        if (const auto b = judge_relation(f_, *rel, kernels_, c.witness)) {
            RelationReport& rr = report_.relations[size_t(rel - relations_.data())];
            ++rr.violations;
            if (!b->side.empty()) ++rr.sides[b->side];
            FailureClass& counted = count_in_class(f_, rr.classes, b->key, c.witness, 0, b->why);
            if (counted.witness == c.witness) {
                counted.case_path = out.path;
                counted.minimised = written_.count(out.path) > 0;
            }
        }
    return out;
}

void CampaignFindings::finish(uint64_t inputs) {
    for (size_t i = 0; i < kernels_.size(); ++i) {
        FamilyKernelReport& k = report_.kernels[i];
        k.tried = inputs;  // every kernel ran on every input
        sort_classes(k.classes);
        for (FailureClass& fc : k.classes) {
            fc.case_path = witness_files_[i][fc.key.str()];
            fc.minimised = written_.count(*fc.case_path) > 0;
        }
    }
    for (RelationReport& rr : report_.relations) {
        rr.tried = inputs;
        sort_classes(rr.classes);
    }
    report_.cases = inputs;
    report_.interrupted = interrupted();
}

}  // namespace isect::check
