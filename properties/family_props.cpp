// The claims every family makes, as RapidCheck properties over its
// generators (shrunk counterexamples print as case files): the references
// agree, with each other and with the fast oracle; every built-in kernel
// keeps its contract, answer and numbers; every planted bug is caught, by a
// property and by isect check; the exact answer is invariant under the
// symmetries of the input, and a kernel's answer changes under them only
// where its contract allows; the fuzz layout round-trips; input outside the
// domain is survived.
#include <cstring>
#include <iomanip>
#include <rapidcheck.h>

#include "check/model/family.hpp"
#include "check/engine/judge.hpp"
#include "check/engine/relation.hpp"
#include "check/engine/run.hpp"
#include "check/engine/symmetry.hpp"
#include "check/engine/witness.hpp"
#include "check/io/case_file.hpp"
#include "check/io/fuzz_bytes.hpp"
#include "isect/ref/exact.hpp"
#include "property.hpp"

namespace isect::check {

/// How RapidCheck shows a generated input: as a case a person can paste.
void showValue(const Generated& g, std::ostream& os) {
    os << "(" << g.kind << ")\n";
    if (g.family) os << show_family_input(*g.family, g.in);
}

namespace {

using props::expect_property;
using props::expect_property_fails;
using props::gen_family;
using props::judged_case;

class FamilyProperty : public ::testing::TestWithParam<const Family*> {};

TEST_P(FamilyProperty, referencesAgreeOnEveryGeneratedInput) {
    const Family& f = *GetParam();
    expect_property(20000, [&] {
        const Generated g = *gen_family(f);
        RC_TAG(std::string(g.kind));
        try {
            f.truth(g.in.data());
        } catch (const ReferenceMismatch& e) {
            RC_FAIL(e.what());
        }
    });
}

TEST_P(FamilyProperty, fastOracleAgreesWithTheReferences) {
    const Family& f = *GetParam();
    ASSERT_TRUE(f.fast_truth) << f.name << " has no fast oracle";
    expect_property(20000, [&] {
        const Generated g = *gen_family(f);
        RC_TAG(std::string(g.kind));
        const auto fast = f.fast_truth(g.in.data());
        RC_CLASSIFY(!fast, "fast oracle undecided");
        // Or an answer the family holds right as well (a point on the
        // boundary of two Voronoi regions).
        if (fast)
            RC_ASSERT(fast->answer == f.truth(g.in.data()).answer || (f.also_right && f.also_right(g.in.data(), fast->answer)));
    });
}

/// Every case the fast oracle decides, from `cases` generated ones (every
/// generator kind in turn, a fixed seed), has the rational reference's
/// answer and every number inside its enclosure; returns how many it decided.
int expect_oracle_exact(const Family& f, int cases, uint64_t seed) {
    const std::vector<std::string> kinds = gen_kinds(f);
    RandomSource source(seed);
    int decided = 0;
    for (int i = 0; i < cases; ++i) {
        const Inputs in = generate(f, source, kinds[size_t(i) % kinds.size()]).in;
        const auto fast = f.fast_truth(in.data());
        if (!fast) continue;  // undecided: the references decide such a case
        ++decided;
        const std::string why = f.oracle_check(in.data(), *fast);
        if (!why.empty()) {
            ADD_FAILURE() << why << "\n" << show_family_input(f, in);
            break;
        }
    }
    return decided;
}

/// The fast oracle's truth is the rational reference's, exactly: the same
/// answer, every enclosure holding the exact number; over half a million
/// cases (scaled down under sanitizers), every generator kind in turn. It was
/// a million until the eighteenth family: the property then cost 252 s of
/// the gcc pass's 540 s of test time and ./isect test ran 15:42 on a clean
/// clone, over its 15 minutes. The long `isect check` runs still compare the
/// oracle with both references on one case in 256, over tens of millions.
TEST_P(FamilyProperty, fastOracleEqualsTheRationalReferenceOnHalfAMillionCases) {
    const Family& f = *GetParam();
    ASSERT_TRUE(f.fast_truth && f.oracle_check) << f.name << " has no fast oracle";
    const int cases = props::scaled(500000);
    std::cout << expect_oracle_exact(f, cases, 20261123) << " of " << cases
              << " cases decided by the fast oracle, every one exactly\n";
}

/// The same on double inputs (--precision double): the oracles were written
/// for floats, where most products are exact in double; on doubles their
/// intervals must still enclose, and they must still agree exactly.
TEST_P(FamilyProperty, fastOracleEqualsTheRationalReferenceOnDoubleInputs) {
    const Family& f = *GetParam();
    const PrecisionScope scope(Precision::double_);
    const int cases = props::scaled(200000);
    std::cout << expect_oracle_exact(f, cases, 20261124) << " of " << cases
              << " double cases decided by the fast oracle, every one exactly\n";
}

/// The families with double-precision built-ins.
class DoubleKernelProperty : public FamilyProperty {};

/// The double built-ins keep the contracts they declare inside the domain
/// where their products stay in double's range, and the double planted
/// bugs are caught.
TEST_P(DoubleKernelProperty, keepTheirContractsAndDoubleBugsAreCaught) {
    const Family& f = *GetParam();
    const PrecisionScope scope(Precision::double_);
    const std::vector<FamilyKernel> kernels = f.kernels(), broken = f.broken();
    ASSERT_FALSE(kernels.empty()) << f.name;
    std::string why;
    const Domain domain = *Domain::parse("2^-250:2^250", why);
    expect_property(20000, [&] {
        const Generated g = *gen_family(f, "", domain);
        RC_TAG(std::string(g.kind));
        const std::vector<FamilyJudgement> js = judged_case(f, kernels, g.in);
        for (size_t i = 0; i < kernels.size(); ++i)
            if (js[i].violates) RC_FAIL(kernels[i].name + " (double, " + kernels[i].contract.str() + "): " + js[i].why);
    });
    for (const FamilyKernel& k : broken) {
        SCOPED_TRACE(k.name);
        expect_property_fails(200000, [&] {
            const Generated g = *gen_family(f, "", domain);
            RC_ASSERT(!judged_case(f, {k}, g.in)[0].violates);
        });
    }
}

/// The claim above can fail: a planted wrong oracle (signs in plain double)
/// is caught.
TEST_P(FamilyProperty, plantedWrongOracleIsCaught) {
    const Family& f = *GetParam();
    ASSERT_TRUE(f.wrong_oracle) << f.name << " has no planted wrong oracle";
    expect_property_fails(200000, [&] {
        const Generated g = *gen_family(f);
        RC_ASSERT(f.oracle_check(g.in.data(), f.wrong_oracle(g.in.data())).empty());
    });
}

/// The families with more than one answer, so a band between them
/// (transformed_aabb's only answer is a box, judged by containment).
class BandProperty : public FamilyProperty {};

/// Each number's delta for K, as the engine takes it (judge.cpp's band()).
std::vector<double> delta_of(const Family& f, const Inputs& in, double k) {
    std::vector<double> delta(in.size());
    band_deltas(f, in.data(), k * unit_roundoff(), delta.data());
    return delta;
}

/// A band is written once over a number policy; its fast instantiation
/// (intervals, then Mpzf where they cannot decide) answers as its exact one
/// (rationals) wherever it answers, in float and in double runs (K in units
/// of the run's u on both sides).
TEST_P(BandProperty, fastBandEqualsTheExactBand) {
    const Family& f = *GetParam();
    ASSERT_TRUE(f.band.exact && f.band.fast) << f.name << " has a band but no fast stage";
    for (const Precision p : {Precision::single, Precision::double_}) {
        SCOPED_TRACE(precision_name(p));
        const PrecisionScope scope(p);
        expect_property(5000, [&] {
            const Generated g = *gen_family(f);
            const std::vector<double> delta = delta_of(f, g.in, *rc::gen::element(1.0, 0.5, 3.0, 1e-6, 1e3));
            const int exact_answer = f.truth(g.in.data()).answer;
            const std::optional<bool> fast = f.band.fast(g.in.data(), exact_answer, delta.data());
            RC_CLASSIFY(fast.has_value(), "decided fast");
            if (fast) RC_ASSERT(*fast == f.band.exact(g.in.data(), exact_answer, delta.data()));
        });
    }
}

/// Moves each input number by a random half step of its delta, -1 to 1 of
/// it, a hair short (a vertex, edge or inside point of the delta-box; a
/// number that would leave the doubles stays), and returns the moved
/// input's exact answer, or nullopt outside the family's domain.
std::optional<int> moved_answer(const Family& f, const Inputs& in, const std::vector<double>& delta) {
    Inputs moved = in;
    for (size_t i = 0; i < in.size(); ++i) {
        const double x = in[i] + 0.5 * (1 - 0x1p-30) * *rc::gen::inRange(-2, 3) * delta[i];
        if (std::isfinite(x) || !std::isfinite(in[i])) moved[i] = x;
    }
    if (!f.in_domain(moved.data(), nullptr)) return std::nullopt;
    return f.truth(moved.data()).answer;
}

/// The band is sound: wherever moving the input numbers within their
/// deltas (each by up to its whole delta) changes the exact answer (to one that is not right as well), the
/// band of those deltas says the answer can flip.
TEST_P(BandProperty, bandHoldsEveryPerturbationThatFlips) {
    const Family& f = *GetParam();
    expect_property(3000, [&] {
        const Generated g = *gen_family(f);
        const std::vector<double> delta = delta_of(f, g.in, *rc::gen::element(1.0, 3.0, 16.0));
        const int exact_answer = f.truth(g.in.data()).answer;
        const std::optional<int> moved = moved_answer(f, g.in, delta);
        RC_PRE(moved.has_value());
        const bool flips = *moved != exact_answer && !(f.also_right && f.also_right(g.in.data(), *moved));
        RC_CLASSIFY(flips, "flips");
        if (flips) RC_ASSERT(f.band.exact(g.in.data(), exact_answer, delta.data()));
    });
}

/// The same from above: where the witnessed-K search finds an input whose
/// exact answer is another, each number within K' deltas of the case's, the
/// band of K' says the answer can flip. (It found aabb_triangle's band,
/// which moved the box alone, half as wide as the inputs that flip.)
TEST_P(BandProperty, bandHoldsWhereTheSearchFindsAFlip) {
    const Family& f = *GetParam();
    expect_property(2000, [&] {
        const Generated g = *gen_family(f);
        const int exact_answer = f.truth(g.in.data()).answer;
        const int other = (exact_answer + *rc::gen::inRange<int>(1, int(f.answers.size()))) % int(f.answers.size());
        const std::optional<Perturbation> p = flipping_perturbation(f, g.in, other, 0x1p-40, 64);
        RC_CLASSIFY(p.has_value(), "flips");
        if (!p) return;
        RC_ASSERT(f.band.exact(g.in.data(), exact_answer, delta_of(f, g.in, p->k).data()));
    });
}

/// The soundness property can fail: ray_triangle's band (a first-order
/// one, tight within the rounding of its partials) taken at an eighth of
/// the deltas misses perturbations that flip the answer.
TEST(RayTriangleBand, aBandEightTimesTooNarrowIsCaught) {
    const Family& f = ray_triangle_family();
    expect_property_fails(20000, [&] {
        const Generated g = *gen_family(f);
        const std::vector<double> delta = delta_of(f, g.in, 1.0);
        std::vector<double> narrow = delta;
        for (double& x : narrow) x /= 8;
        const int exact_answer = f.truth(g.in.data()).answer;
        const std::optional<int> moved = moved_answer(f, g.in, delta);
        RC_PRE(moved.has_value());
        if (*moved != exact_answer) RC_ASSERT(f.band.exact(g.in.data(), exact_answer, narrow.data()));
    });
}

/// The claim above can fail: the same band body in plain double (every sign
/// rounded to nearest) differs from the exact band somewhere, in a double
/// run, where differences of inputs round.
class WrongBandProperty : public FamilyProperty {};
TEST_P(WrongBandProperty, plantedWrongBandIsCaught) {
    const Family& f = *GetParam();
    const PrecisionScope scope(Precision::double_);
    expect_property_fails(200000, [&] {
        const Generated g = *gen_family(f);
        const std::vector<double> delta = delta_of(f, g.in, *rc::gen::element(1.0, 0.5, 3.0, 1e-6, 1e3));
        const int exact_answer = f.truth(g.in.data()).answer;
        RC_ASSERT(f.band.wrong(g.in.data(), exact_answer, delta.data()) == f.band.exact(g.in.data(), exact_answer, delta.data()));
    });
}

TEST_P(FamilyProperty, builtinKernelsKeepTheirContracts) {
    const Family& f = *GetParam();
    const std::vector<FamilyKernel> kernels = f.kernels();
    expect_property(20000, [&] {
        const Generated g = *gen_family(f);
        RC_TAG(std::string(g.kind));
        const std::vector<FamilyJudgement> js = judged_case(f, kernels, g.in);
        for (size_t i = 0; i < kernels.size(); ++i)
            if (js[i].violates) RC_FAIL(kernels[i].name + " (" + kernels[i].contract.str() + "): " + js[i].why);
    });
}

/// The relations planted bug k claims (a strict-edge kernel: watertight),
/// as isect check judges them.
std::vector<Relation> claimed(const Family& f, const FamilyKernel& k) {
    std::vector<Relation> out;
    for (const RelationKind kind : k.relations)
        if (relation_unsupported(f, kind).empty()) out.push_back({kind, 0, 0, 0});
    return out;
}

TEST_P(FamilyProperty, plantedBugsBreakTheirContractsOrTheirRelations) {
    const Family& f = *GetParam();
    for (const FamilyKernel& k : f.broken()) {
        SCOPED_TRACE(k.name);
        const std::vector<Relation> relations = claimed(f, k);
        expect_property_fails(200000, [&] {
            const Generated g = *gen_family(f);
            RC_ASSERT(!judged_case(f, {k}, g.in)[0].violates);
            for (const Relation& rel : relations) RC_ASSERT(!judge_relation(f, rel, {k}, g.in));
        });
    }
}

TEST_P(FamilyProperty, plantedBugsAreCaughtByIsectCheck) {
    const Family& f = *GetParam();
    for (const FamilyKernel& k : f.broken()) {
        FamilyCheckOptions options;
        options.stream.max_cases = 20000;  // not scaled: the finding must come within this many
        options.stream.seed = 1;
        options.stop_at_first = true;
        options.minimize_classes = 1;
        options.relations = claimed(f, k);
        const FamilyCheckReport report = run_family_check(f, {k}, options);
        ASSERT_EQ(report.kernels.size(), 1u);
        uint64_t relation_violations = 0;
        for (const RelationReport& r : report.relations) relation_violations += r.violations;
        EXPECT_GT(report.kernels[0].violations + relation_violations, 0u) << k.name << " was not caught in 20000 cases";
        const std::vector<FailureClass>& classes =
            !report.kernels[0].classes.empty() || report.relations.empty() ? report.kernels[0].classes : report.relations[0].classes;
        // A wrong answer's witness: the least K that explains it lies
        // between the band's and the witnessed one, and the perturbed input
        // is the kernel's answer exactly, each number within that K.
        for (const FailureClass& c : report.kernels[0].classes) {
            if (c.witnessed_k == 0) continue;
            // (A band K at measured_k's floor, 2^-40, says "at most that".)
            if (c.band_k > 0x1p-40 * 1.001) {
                EXPECT_LE(c.band_k, c.witnessed_k * 1.0001) << k.name << ": " << c.key.str();
            }
            const Truth moved = f.truth(c.perturbed.data());
            EXPECT_EQ(moved.answer, k.fn(c.witness.data()).answer) << k.name << ": " << c.key.str();
            std::vector<double> delta(f.size());
            band_deltas(f, c.witness.data(), c.witnessed_k * unit_roundoff(), delta.data());
            for (size_t i = 0; i < delta.size(); ++i)
                if (c.perturbed[i] != c.witness[i]) {  // (inf stays inf)
                    EXPECT_LE(std::fabs(c.perturbed[i] - c.witness[i]), delta[i]) << k.name << " number " << i;
                }
        }
        if (!classes.empty())
            std::cout << "minimised counterexample for " << k.name << ":\n"
                      << format_family_case(f, classes[0].witness, classes[0].why) << std::endl;
    }
}

/// A random symmetry of the input: permutation, mirror, scale 2^k, a small
/// exact translation, vertex rotation and reversal.
Symmetry any_symmetry() {
    Symmetry s;
    s.perm = *rc::gen::inRange(0, 6);
    s.mirror = *rc::gen::inRange(0, 8);
    s.scale = *rc::gen::inRange(-40, 41);
    if (*rc::gen::arbitrary<bool>())
        for (double& t : s.translate) t = double(*rc::gen::inRange(-4, 5)) * 0.25;
    s.rotate = *rc::gen::inRange(0, 5);
    s.reverse = *rc::gen::arbitrary<bool>();
    return s;
}

TEST_P(FamilyProperty, exactAnswerInvariantUnderSymmetriesScalingTranslationAndVertexOrder) {
    const Family& f = *GetParam();
    expect_property(5000, [&] {
        const Generated g = *gen_family(f);
        const Symmetry s = any_symmetry();
        const auto moved = transformed(f, g.in, s);
        // RC_PRE decomposes its expression: && inside it would not short-circuit.
        const bool applies = moved.has_value() && f.in_domain(moved->data(), nullptr) && (!f.handed || keeps_handedness(s));
        RC_PRE(applies);
        RC_ASSERT(f.truth(g.in.data()).answer == f.truth(moved->data()).answer);
    });
}

/// The judge is as symmetric as the truth: under a permutation or mirror
/// of the axes, a 2^k scale, a rotation or reversal of a polygon's
/// vertices, every band answers alike, and every number whose exact value
/// the move keeps is judged on the same scale (a wrong value as far off).
/// (Not under translation: the band and the scales are relative to the
/// inputs' magnitudes, as a float kernel's rounding is.)
TEST_P(FamilyProperty, bandsAndNumberScalesInvariantUnderSymmetries) {
    const Family& f = *GetParam();
    expect_property(2000, [&] {
        const Generated g = *gen_family(f);
        Symmetry s = any_symmetry();
        s.translate = {0, 0, 0};
        const auto moved = transformed(f, g.in, s);
        // Where the numbers' squares stay normal: below, rounding is absolute
        // (the scales' floors at the least normal number are on purpose).
        const auto normal_scale = [&](const Inputs& in) {
            for (double x : in)
                if (x != 0 && std::isfinite(x) && std::fabs(x) < std::sqrt(least_normal())) return false;
            return true;
        };
        const bool applies = moved.has_value() && f.in_domain(moved->data(), nullptr) && f.in_domain(g.in.data(), nullptr) &&
                             (!f.handed || keeps_handedness(s)) && normal_scale(g.in) && normal_scale(*moved);
        RC_PRE(applies);
        // And the two arguments exchanged, where the family has two alike.
        Inputs exchanged = *moved;
        const bool exchange = f.exchangeable > 0 && *rc::gen::arbitrary<bool>();
        if (exchange)
            std::swap_ranges(exchanged.begin(), exchanged.begin() + long(f.exchangeable), exchanged.begin() + long(f.exchangeable));
        const Truth a = f.truth(g.in.data()), b = f.truth(exchanged.data());
        RC_ASSERT(a.answer == b.answer);
        for (size_t other = 0; other < f.answers.size(); ++other) {
            if (int(other) == a.answer) continue;
            for (const double k : {1.0, 16.0}) {
                RC_LOG() << "band of " << f.answers[other] << " at K " << k << " after perm " << s.perm << " mirror " << s.mirror
                         << " scale 2^" << s.scale << " rotate " << s.rotate << (s.reverse ? " reversed" : "")
                         << (exchange ? " exchanged" : "") << "\n";
                RC_ASSERT(band(f, g.in.data(), a.answer, k) == band(f, exchanged.data(), b.answer, k));
            }
        }
        if (exchange) return;  // the numbers' meanings change with the order (s and t)
        // The numbers, where the move keeps what each output index means:
        // a vertex rotation or reversal and a 2^k scale (an axis move
        // relabels the coordinates of a point output).
        if (!f.answer_has_values[size_t(a.answer)] || a.values.size() != f.outputs.size() || s.perm != 0 || s.mirror != 0)
            return;
        for (size_t i = 0; i < a.values.size() && i < b.values.size(); ++i) {
            const double x = a.values[i];
            if (x != b.values[i] || !std::isfinite(x) || x == 0) continue;
            Answer ga{a.answer, a.values}, gb{b.answer, b.values};
            ga.values[i] = gb.values[i] = x * (1 + 0x1p-20);
            const double ea = f.value_error(g.in.data(), a, ga).e, eb = f.value_error(moved->data(), b, gb).e;
            RC_CLASSIFY(true, f.outputs[i]);
            RC_LOG() << f.outputs[i] << ": " << ea << " against " << eb << " after perm " << s.perm << " mirror " << s.mirror
                     << " scale 2^" << s.scale << " rotate " << s.rotate << (s.reverse ? " reversed" : "") << "\n";
            // Alike to the scale's own rounding (and below 10^-3 units, where
            // a value is judged right whatever its scale).
            if (!(std::isinf(ea) && std::isinf(eb)))
                RC_ASSERT(std::fabs(ea - eb) <= 1e-6 * std::max(ea, eb) + 1e-3);
        }
    });
}

/// Which symmetries each built-in kernel keeps, measured; wherever an
/// answer changes, the kernel must keep its contract on both inputs.
TEST_P(FamilyProperty, kernelsChangeTheirAnswerUnderSymmetriesOnlyWithinTheirContract) {
    const Family& f = *GetParam();
    const int cases = props::scaled(20000);
    RandomSource source(20261122);
    std::vector<Inputs> inputs;
    for (int i = 0; i < cases; ++i) inputs.push_back(generate(f, source).in);
    struct Move {
        const char* name;
        Symmetry s;
    };
    const Move moves[] = {{"mirror", {0, 5, 0, {0, 0, 0}, 0, false}},
                          {"permute", {4, 0, 0, {0, 0, 0}, 0, false}},
                          {"scale 2^7", {0, 0, 7, {0, 0, 0}, 0, false}},
                          {"translate", {0, 0, 0, {0.5f, -1, 0.25f}, 0, false}},
                          {"rotate", {0, 0, 0, {0, 0, 0}, 1, false}},
                          {"reverse", {0, 0, 0, {0, 0, 0}, 0, true}}};
    std::cout << std::left << std::setw(28) << "kernel";
    for (const Move& m : moves) std::cout << std::setw(13) << m.name;
    std::cout << "\n";
    for (const FamilyKernel& k : f.kernels()) {
        const std::vector<FamilyKernel> one{k};
        std::cout << std::setw(28) << k.name;
        for (const Move& m : moves) {
            int changed = 0, applied = 0;
            for (const Inputs& in : inputs) {
                const auto moved = transformed(f, in, m.s);
                if (!moved || !f.in_domain(moved->data(), nullptr) || (f.handed && !keeps_handedness(m.s))) continue;
                ++applied;
                if (k.fn(in.data()).answer == k.fn(moved->data()).answer) continue;
                ++changed;
                for (const Inputs* x : {&in, &*moved}) {
                    check::CaseJudge judged(f, one, *x, Oracle::slow, false);
                    judged.finish();
                    EXPECT_TRUE(judged.disagreement().empty()) << judged.disagreement();
                    if (judged.disagreement().empty()) {
                        EXPECT_FALSE(judged.judgements()[0].violates) << k.name << " / " << m.name;
                    }
                }
            }
            std::cout << std::setw(13) << (applied == 0 ? "-" : changed == 0 ? "kept" : std::to_string(changed) + " chg");
        }
        std::cout << "\n";
    }
    std::cout << "(answers changed by each move, out of " << cases << " generated inputs; - where it never applies)\n";
}

TEST_P(FamilyProperty, inputOutsideTheDomainIsSurvivedByEveryKernel) {
    const Family& f = *GetParam();
    const std::vector<FamilyKernel> kernels = f.kernels();
    expect_property(5000, [&] {
        props::RcSource s;
        const Inputs in = out_of_domain(f, s);
        RC_ASSERT(!f.in_domain(in.data(), nullptr));
        // No exact answer to hold them to: they must return, and (checked by
        // the sanitizer builds) without undefined behaviour.
        for (const FamilyKernel& k : kernels) {
            const Answer a = k.fn(in.data());
            RC_ASSERT(a.answer == k.fn(in.data()).answer);
        }
    });
}

class PreconditionProperty : public FamilyProperty {};

/// --require NAME: every generated input meets NAME (adapted by
/// construction, not by retries) and stays in the family's domain, with
/// every magnitude and within a declared magnitude domain alike.
TEST_P(PreconditionProperty, generatedInputsMeetEveryRequiredPrecondition) {
    const Family& f = *GetParam();
    std::string why;
    const Domain narrow = *Domain::parse("2^-20:2^20", why);
    expect_property(2000, [&] {
        const Precondition& p = *rc::gen::elementOf(f.preconditions);
        Domain d = *rc::gen::element(Domain{}, narrow);
        d.required = {p.name};
        const Generated g = *gen_family(f, "", d);
        RC_ASSERT(f.in_domain(g.in.data(), nullptr));
        RC_ASSERT(p.holds(g.in.data()));
        RC_ASSERT(d.outside(f, g.in.data()).empty());
    });
}

/// proper_triangle settles most triangles in double (a rounding bound, and
/// exact zeros by error-free transformations) before rationals: on every
/// generated triangle, degenerate ones and the slivers an ulp off them
/// included, it must say what the rationals say.
class ProperTriangleProperty : public FamilyProperty {};

TEST_P(ProperTriangleProperty, agreesWithRationals) {
    const Family& f = *GetParam();
    std::vector<std::pair<const Precondition*, size_t>> triangles;  // each with its key's place ("t1 has ...")
    for (const Precondition& p : f.preconditions)
        if (p.name == "proper_triangle") triangles.push_back({&p, f.offset(p.says.substr(0, p.says.find(' ')))});
    ASSERT_FALSE(triangles.empty());
    Domain adapted;
    adapted.required = {"proper_triangle"};
    int degenerate = 0;
    expect_property(5000, [&] {
        Generated g = *rc::gen::oneOf(gen_family(f), gen_family(f, "", adapted));
        // And triangles on a line through 0 of direction (1, 3, 5), their
        // vertices s (1, 3, 5) with s of 50 bits (so 3 s and 5 s are exact)
        // at scales far apart, maybe moved an ulp: the differences round,
        // each component its own way (double inputs, as --precision double
        // makes), so n = 0 computes as nonzero and a near-zero n as zero
        // unless the filter's bound and its exact-zero proof are right.
        const bool messy = *rc::gen::arbitrary<bool>();
        RC_CLASSIFY(messy, "on a line across scales");
        if (messy)
            for (const auto& [p, at] : triangles) {
                double* t = g.in.data() + at;
                for (int v = 0; v < 3; ++v) {
                    const double sv = std::ldexp(double(*rc::gen::inRange<int64_t>(-(int64_t(1) << 50), int64_t(1) << 50)),
                                                 *rc::gen::inRange(-80, 30));
                    for (int i = 0; i < 3; ++i) t[3 * v + i] = sv * (2 * i + 1);
                }
                // 9 and above: none. Drawn at full size: inRange scales its
                // range with RapidCheck's size, so the first (small) cases
                // always nudged a vertex, and at ISECT_PROPERTY_SCALE=0.01
                // one run in a hundred saw no degenerate triangle at all.
                const int moved = *rc::gen::resize(100, rc::gen::inRange(0, 12));
                if (moved < 9) t[moved] = std::nextafter(t[moved], *rc::gen::arbitrary<bool>() ? INFINITY : -INFINITY);
            }
        for (const auto& [p, at] : triangles) {
            const double* t = g.in.data() + at;
            const ref::Point a = ref::exact(Vec3d{t[0], t[1], t[2]}), b = ref::exact(Vec3d{t[3], t[4], t[5]}),
                             c = ref::exact(Vec3d{t[6], t[7], t[8]});
            const ref::Point n = ref::cross(ref::sub(b, a), ref::sub(c, a));
            const bool proper = !(n[0] == 0 && n[1] == 0 && n[2] == 0);
            degenerate += !proper;
            RC_CLASSIFY(!proper, "degenerate");
            RC_ASSERT(p->holds(g.in.data()) == proper);
        }
    });
    EXPECT_GT(degenerate, 0) << "no degenerate triangle generated: the property would not see a wrong zero";
}

TEST_P(FamilyProperty, fuzzBytesRoundTripEveryInput) {
    const Family& f = *GetParam();
    expect_property(5000, [&] {
        const Generated g = *gen_family(f);
        const std::vector<uint8_t> bytes = encode_fuzz(f, g.in);
        RC_ASSERT(bytes.size() == fuzz_bytes(f));
        const Inputs back = decode_fuzz(f, bytes.data(), bytes.size());
        RC_ASSERT(std::memcmp(back.data(), g.in.data(), g.in.size() * sizeof(double)) == 0);
    });
}

TEST_P(FamilyProperty, mutatorKeepsTheLayoutAndNeverCrashes) {
    const Family& f = *GetParam();
    expect_property(5000, [&] {
        std::vector<uint8_t> bytes = *rc::gen::container<std::vector<uint8_t>>(rc::gen::arbitrary<uint8_t>());
        const size_t size = bytes.size();
        bytes.resize(std::max<size_t>(size, 160));
        const size_t n = mutate_fuzz(f, bytes.data(), size, bytes.size(), *rc::gen::arbitrary<unsigned>());
        RC_ASSERT(n == 0 || n == fuzz_bytes(f));
        const Inputs in = decode_fuzz(f, bytes.data(), n ? n : size);
        RC_ASSERT(in.size() == f.size());
    });
}

TEST_P(FamilyProperty, declaredDomainHoldsEveryGeneratedAndDecodedInput) {
    const Family& f = *GetParam();
    std::string why;
    const Domain domain = *Domain::parse("2^-20:2^20", why);
    expect_property(5000, [&] {
        const Generated g = *gen_family(f, "", domain);
        RC_ASSERT(domain.outside(f, g.in.data()).empty());
        RC_ASSERT(f.in_domain(g.in.data(), nullptr));
        const std::vector<uint8_t> bytes = *rc::gen::container<std::vector<uint8_t>>(rc::gen::arbitrary<uint8_t>());
        const Inputs in = decode_fuzz(f, bytes.data(), bytes.size(), domain);
        if (f.in_domain(in.data(), nullptr)) RC_ASSERT(domain.outside(f, in.data()).empty());
    });
}

using props::judged_families;
constexpr auto name_of = props::family_test_name;

INSTANTIATE_TEST_SUITE_P(Families, FamilyProperty, ::testing::ValuesIn(judged_families()), name_of);

std::vector<const Family*> banded_families() {
    std::vector<const Family*> out;
    for (const Family* f : judged_families())
        if (f->answers.size() > 1) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, BandProperty, ::testing::ValuesIn(banded_families()), name_of);

/// The families with a precondition, or with one named `name`.
std::vector<const Family*> families_with_preconditions(const std::string& name = "") {
    std::vector<const Family*> out;
    for (const Family* f : families())
        if (std::any_of(f->preconditions.begin(), f->preconditions.end(),
                        [&](const Precondition& p) { return name.empty() || p.name == name; }))
            out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, PreconditionProperty, ::testing::ValuesIn(families_with_preconditions()), name_of);
INSTANTIATE_TEST_SUITE_P(Families, ProperTriangleProperty, ::testing::ValuesIn(families_with_preconditions("proper_triangle")),
                         name_of);

/// The bands written over a number policy, which have a plain-double
/// instantiation (aabb_triangle's is asked of its references instead).
std::vector<const Family*> policy_banded_families() {
    std::vector<const Family*> out;
    for (const Family* f : banded_families())
        if (f->band.wrong) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, WrongBandProperty, ::testing::ValuesIn(policy_banded_families()), name_of);

std::vector<const Family*> double_families() {
    std::vector<const Family*> out;
    const PrecisionScope scope(Precision::double_);
    for (const Family* f : judged_families())
        if (!f->kernels().empty()) out.push_back(f);
    return out;
}

INSTANTIATE_TEST_SUITE_P(Families, DoubleKernelProperty, ::testing::ValuesIn(double_families()), name_of);

/// The claims in core/isect/aabb_triangle.hpp: mirroring and scaling by 2^k
/// are exact on every intermediate value, so sat and conservative keep them.
TEST(AabbTriangleKernels, keepMirrorsAndPowerOfTwoScalingExactly) {
    const Family& f = aabb_triangle_family();
    RandomSource source(7);
    for (int i = 0; i < props::scaled(50000); ++i) {
        const Inputs in = generate(f, source).in;
        for (const Symmetry& s : {Symmetry{0, 3, 0, {0, 0, 0}, 0, false}, Symmetry{0, 0, 9, {0, 0, 0}, 0, false},
                                  Symmetry{0, 7, -5, {0, 0, 0}, 0, false}}) {
            const auto moved = transformed(f, in, s);
            if (!moved) continue;
            for (const FamilyKernel& k : f.kernels())
                ASSERT_EQ(k.fn(in.data()).answer, k.fn(moved->data()).answer) << k.name << "\n" << show_family_input(f, in);
        }
    }
}

}  // namespace
}  // namespace isect::check
