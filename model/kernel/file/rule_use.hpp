// rule_use.hpp — which of a variant file's rules a run evaluated. A review
// replays each finding's trace with a recorder set, so that the reply ties the
// finding to the hunk whose rule (lifted from the tree, or the file's own) the
// trace ran (review/reply.cpp hunk_of), rather than guessing from words.
#pragma once
#include <set>
#include <string>

namespace tagproof::kernel {

// Set by RecordRuleUse on this thread; file_rules.hpp adds each overridden
// rule it evaluates (an expression or a body the file gives) while it is set.
inline thread_local std::set<std::string>* rule_use = nullptr;

inline void note_rule_use(const char* rule) {
    if (rule_use) rule_use->insert(rule);
}

// The rules evaluated on this thread while it lives.
class RecordRuleUse {
public:
    explicit RecordRuleUse(std::set<std::string>& into) : prev_(rule_use) { rule_use = &into; }
    ~RecordRuleUse() { rule_use = prev_; }
    RecordRuleUse(const RecordRuleUse&) = delete;
    RecordRuleUse& operator=(const RecordRuleUse&) = delete;

private:
    std::set<std::string>* prev_;
};

}  // namespace tagproof::kernel
