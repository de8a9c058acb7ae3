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
#pragma once
#include <array>
#include <cstdint>

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

}  // namespace tagproof::kernel
