// kept_answers.hpp — a variant's answers to a one-byte question, kept by
// that byte for as long as the asker lives.
//
// The model and the reference ask page_kasan_tag(env, field) of every page
// they look at, and the reference page_kasan_tag_field(env, tag) at every
// page it tags. Their env is fixed for their life, and a variant answers
// alike whenever asked alike (the premise variant_calls.hpp states, on which
// the recorded transcripts rest), so the first answer for a byte is the
// answer: each byte is asked once, the first time it comes (through the
// recorder, that was a tenth of an exploration). An answer that throws is
// not kept: asked again, it throws again.
//
// KeptAnswers keeps the answers to a question of a few arguments the same way,
// by its arguments, for questions the model asks at every event with few
// distinct arguments: post_alloc_hook(env, gfp, order, skip) at every page
// allocation, which for a variant file or a tree is a body run by
// file/rule_body.hpp's interpreter (a quarter of a tree patch's exploration,
// `perf record --call-graph dwarf`). While a run records which of a file's
// rules it evaluates (file/rule_use.hpp), every question is asked afresh: a
// kept answer would leave its rules unnoted.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "file/rule_use.hpp"

namespace tagproof::kernel {

class KeptByteAnswers {
public:
    // ask() gives the variant's answer for `byte` (0..255): asked only the
    // first time; its value must fit 0..255 too (a tag or a tag field)
    template <class Ask>
    std::uint8_t get(std::uint8_t byte, Ask ask) {
        std::int16_t& k = kept_[byte];
        if (k < 0) k = std::int16_t(std::uint8_t(ask()));
        return std::uint8_t(k);
    }

private:
    std::array<std::int16_t, 256> kept_ = filled();
    static constexpr std::array<std::int16_t, 256> filled() {
        std::array<std::int16_t, 256> a{};
        for (auto& x : a) x = -1;  // not asked yet
        return a;
    }
};

// Answers by Key (hashed by Hash), shared by an asker and its copies: the
// copies of a model keep its env, and a model is copied at every state the
// explorer keeps, so a copy's answers are its original's.
template <class Key, class Answer, class Hash>
class KeptAnswers {
public:
    template <class Ask>
    Answer get(const Key& key, Ask ask) {
        if (rule_use) return ask();  // the run notes the rules each answer evaluates
        auto it = kept_->find(key);
        if (it != kept_->end()) return it->second;
        Answer a = ask();  // an answer that throws is not kept
        kept_->emplace(key, a);
        return a;
    }
    std::size_t size() const { return kept_->size(); }

private:
    std::shared_ptr<std::unordered_map<Key, Answer, Hash>> kept_ =
        std::make_shared<std::unordered_map<Key, Answer, Hash>>();
};

}  // namespace tagproof::kernel
