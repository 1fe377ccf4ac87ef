// Judging relations (run.hpp's Relation): claims about several calls,
// judged beside the contracts, which judge one call each. A relation's
// violations are grouped in failure classes like a contract's, with the same
// keys, witnesses, minimiser and report.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "check/engine/run.hpp"
#include "check/model/mesh.hpp"

namespace isect::check {

RelationReport relation_report_for(const Relation& rel, const std::vector<FamilyKernel>& kernels);

/// Whether k's relations are judged on in: inside the magnitudes they are
/// claimed in (FamilyKernel::relations_domain, else k's domain).
bool claimed_on(const Family& f, const FamilyKernel& k, const Inputs& in);

/// Whether the relation's calls on in break it, from the kernels' answers
/// the judge got for in (its truth, too: judged is finished) and the calls
/// the relation adds (the arguments swapped, a larger tmax, a triangle's
/// neighbours); a reference is asked only where a watertight claim needs
/// the exact crossing.
bool breaks(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels, const Inputs& in,
            const CaseJudge& judged);

/// A violation of a relation, judged with the references: its failure
/// class, whom they side with (agree: A, B, neither, both; symmetric: as
/// given, swapped, neither; empty for the others), one line for a person,
/// and their truth of the case.
struct RelationBreak {
    ClassKey key;
    std::string side;
    std::string why;
    Truth truth;
};

/// Runs the relation's calls on `in` and judges them with the references;
/// nullopt when the relation holds there or the references disagree (that
/// input decides nothing: the run reports the disagreement elsewhere).
std::optional<RelationBreak> judge_relation(const Family& f, const Relation& rel,
                                            const std::vector<FamilyKernel>& kernels, const Inputs& in);

/// Counts one case into r, whose kernels' answers `judged` holds: tried, and
/// when they break the relation its violation and failure class (the case
/// becomes the class's witness when it is its first or best member).
/// Returns the class, or null when the relation holds.
const FailureClass* tally_relation(const Family& f, const Relation& rel, const std::vector<FamilyKernel>& kernels,
                                   RelationReport& r, const Inputs& in, const CaseJudge& judged, uint64_t case_number);

/// Adds another part of the same run's report of the relation.
void merge_relation(const Family& f, RelationReport& into, const RelationReport& from);

/// f as a run with mesh m judges it: its mixes and the mesh's, and its
/// shared edges the mesh's own where a case's triangle is the mesh's.
std::unique_ptr<Family> with_mesh(const Family& f, const std::shared_ptr<const Mesh>& m);

/// f as it judges a witness that holds its neighbours (a case file's
/// neighbour.N): the mesh of the case's triangle and those.
std::unique_ptr<Family> with_neighbours(const Family& f, const Inputs& in, std::vector<std::array<double, 9>> neighbours);

/// The triangles around a watertight witness in family f (every group of
/// its neighbourhoods), each its nine numbers: what its case file holds
/// (`neighbour.N`) when they are a mesh's, so that it replays without it.
std::vector<std::array<double, 9>> witness_neighbours(const Family& f, const Inputs& in);

}  // namespace isect::check
