// Case files written: the text of a case (its origin as comments, the
// family, each key's numbers in their shortest exact form, the expected
// answer and numbers), and how a case's expectation stands against the truth.
#include "check/io/case_file.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>


namespace isect::check {

namespace {


std::string format_inputs(const Family& f, const Inputs& in) {
    std::ostringstream out;
    size_t at = 0;
    size_t width = 8;
    for (const InputKey& k : f.inputs) width = std::max(width, k.key.size() + 2);
    for (const InputKey& k : f.inputs) {
        out << k.key << std::string(width - k.key.size(), ' ');
        for (int i = 0; i < k.count; ++i) {
            out << (i ? (i % 3 == 0 ? "   " : " ") : "") << format_number(in[at++]);
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace

std::string format_family_case(const Family& f, const Inputs& in, const std::string& origin,
                               const std::optional<Truth>& truth, std::optional<RelationKind> relation,
                               const std::vector<std::array<double, 9>>& neighbours) {
    std::string comment = origin;
    Truth exact;
    if (truth) {
        exact = *truth;
    } else {
        try {
            exact = f.truth(in.data());
        } catch (const ReferenceMismatch& e) {
            comment += std::string("\n") + e.what() + "; expect below is a placeholder";
        }
    }
    std::ostringstream out;
    std::istringstream lines(comment);
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
    out << "family  " << f.name << "\n";
    if (precision() == Precision::double_) out << "precision  double\n";
    for (const std::string& c : f.followed) out << "convention  " << c << "\n";
    if (relation) out << "relation  " << relation_name(*relation) << "\n";
    out << format_inputs(f, in);
    for (size_t n = 0; n < neighbours.size(); ++n) {
        out << "neighbour." << n + 1 << "  ";
        for (size_t i = 0; i < 9; ++i) out << (i ? (i % 3 == 0 ? "   " : " ") : "") << format_number(neighbours[n][i]);
        out << "\n";
    }
    out << "expect  " << f.answers[size_t(exact.answer)] << "\n";
    if (f.answer_has_values[size_t(exact.answer)])
        for (size_t i = 0; i < f.outputs.size() && i < exact.values.size(); ++i)
            out << "expect." << f.outputs[i] << "  " << format_double(exact.values[i]) << "\n";
    return out.str();
}

std::string show_family_input(const Family& f, const Inputs& in) {
    std::string text = "family  " + f.name + "\n" + format_inputs(f, in);
    if (const std::string why = f.outside_domain(in.data()); !why.empty()) return text + "# outside the domain: " + why + "\n";
    try {
        const Truth t = f.truth(in.data());
        text += "expect  " + f.answers[size_t(t.answer)] + "\n";
    } catch (const std::exception& e) {
        text += std::string("# ") + e.what() + "\n";
    }
    return text;
}

std::vector<std::string> expectation_problems(const FamilyCase& c, const Truth& truth) {
    const Family& f = *c.family;
    std::vector<std::string> problems;
    if (truth.answer != c.expect && !(f.also_right && f.also_right(c.in.data(), c.expect))) {
        problems.push_back("expect says " + f.answers[size_t(c.expect)] + " but both references say " +
                           f.answers[size_t(truth.answer)]);
        return problems;
    }
    if (!f.answer_has_values[size_t(truth.answer)]) return problems;
    // Where the family allows several right values (the entry normal at an
    // edge or corner of a box), any of them is right: the stated values,
    // put in place of the references' ones, must be judged exact by the
    // family's own judge of a kernel's numbers.
    Answer stated{truth.answer, truth.values};
    bool differs = false;
    for (size_t i = 0; i < f.outputs.size(); ++i)
        if (const auto it = c.expect_values.find(f.outputs[i]); it != c.expect_values.end() && !c.expect_tolerance.count(f.outputs[i])) {
            differs = differs || !(it->second == truth.values[i]);
            stated.values[i] = it->second;
        }
    bool another_right_answer = false;
    if (differs && f.value_error) {
        const ValueError err = f.value_error(c.in.data(), truth, stated);
        another_right_answer = err.e == 0 && err.cut_k == 0;
    }
    for (size_t i = 0; i < f.outputs.size(); ++i) {
        const auto it = c.expect_values.find(f.outputs[i]);
        if (it == c.expect_values.end()) continue;
        const double want = it->second, got = truth.values[i];
        if (const auto tol = c.expect_tolerance.find(f.outputs[i]); tol != c.expect_tolerance.end()) {
            if (!(std::fabs(want - got) <= tol->second))
                problems.push_back("expect." + f.outputs[i] + " says " + format_double(want) + " +- " +
                                   format_double(tol->second) + " but the references say " + format_double(got));
        } else if (!(want == got || (std::isnan(want) && std::isnan(got)) || another_right_answer)) {
            problems.push_back("expect." + f.outputs[i] + " says " + format_double(want) + " but the references say " +
                               format_double(got));
        }
    }
    return problems;
}

}  // namespace isect::check
