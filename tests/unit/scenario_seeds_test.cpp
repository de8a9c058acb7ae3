// The scenario corpus as event-fuzzer seeds (differential/scenario_events,
// encode_fuzz_input): every encoded scenario decodes back to its events, the
// lockstep runner replays them as the same calls on the same handles, and
// the model and the reference agree on every one of them. Bytes the
// vocabulary cannot produce are refused, not rounded silently.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>

#include "error.hpp"
#include "event.hpp"
#include "lockstep.hpp"
#include "scenario.hpp"
#include "scenario_events.hpp"

using namespace tagproof;
using namespace tagproof::differential;

namespace {

std::vector<std::string> corpus_files() {
    std::vector<std::string> out;
    for (const char* dir : {"kunit", "eras", "seeds", "checks"})
        for (const auto& e : std::filesystem::directory_iterator(std::string(TAGPROOF_SOURCE_DIR) + "/tests/scenarios/" + dir))
            if (e.path().extension() == ".litmus") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

// "NAME = call(...) cpu=N" or "call(...)": the call.
std::string call_of(const std::string& line) {
    std::smatch m;
    std::regex_search(line, m, std::regex(R"(^(?:\w+ = )?(\w+)\()"));
    return m.size() > 1 ? m[1].str() : "";
}

// The lockstep line's call for an encoded event.
std::string expected_call(const Event& e) {
    switch (e.op) {
        case Op::kmalloc: return e.zero ? "kzalloc" : "kmalloc";
        case Op::vmalloc: return e.zero ? "vzalloc" : "vmalloc";
        case Op::access: return e.kind == AccessKind::read ? "read" : e.kind == AccessKind::write ? "write" : "rmw";
        case Op::check_async: return "kasan_check_async";
        default: return op_name(e.op);
    }
}

TEST(ScenarioSeeds, EveryEncodedScenarioReplaysAsTheSameCallsOnTheSameHandles) {
    std::size_t scenarios = 0, events = 0, picks = 0, accesses = 0;
    for (const auto& file : corpus_files()) {
        scenario::Scenario sc = scenario::load_scenario(file);
        const ScenarioEvents se = scenario_events(sc);
        if (!se.not_encoded.empty() || se.events.empty()) continue;  // no HW_TAGS run, no vocabulary event
        ++scenarios;
        const std::vector<std::uint8_t> bytes = encode_fuzz_input(*se.variant, {}, se.config, se.events);
        const FuzzInput in = decode_fuzz_input(bytes.data(), bytes.size());
        ASSERT_EQ(in.variant, se.variant) << file;
        EXPECT_EQ(in.decoded.config.mte, se.config.mte) << file;
        EXPECT_EQ(in.decoded.config.cmdline, se.config.cmdline) << file;
        ASSERT_EQ(in.decoded.events.size(), se.events.size()) << file;

        std::map<std::string, std::string> name_of;  // scenario variable -> lockstep handle name (page: "pgN")
        std::map<std::string, std::int64_t> sizes, lock_sizes;  // handle -> size in the scenario, in the vocabulary
        Lockstep ls(*in.variant, in.decoded.config, in.picks);
        std::size_t i = 0;
        for (const auto& st : sc.statements) {
            if (st.call == "page_address" && !st.result.empty() && name_of.count(st.args[0].name))
                name_of[st.result] = name_of.at(st.args[0].name);  // the page's handle: no event
            if (i == se.event_lines.size() || st.line != se.event_lines[i]) continue;
            const Event& e = in.decoded.events[i++];
            const std::string where = file + ":" + std::to_string(st.line) + " (" + st.call + ")";
            const std::size_t before = ls.trace().size();
            const std::string mismatch = ls.step(e);
            ASSERT_EQ(mismatch, "") << where;  // the model and the reference agree on the corpus too
            ASSERT_GT(ls.trace().size(), before) << where << ": the event did nothing in the lockstep runner";
            const std::string& line = ls.trace()[before];
            EXPECT_EQ(call_of(line), expected_call(e)) << where << ": " << line;
            if (!st.result.empty()) {
                const std::string h = line.substr(0, line.find(' '));
                name_of[st.result] = h;
                // the object's size as the scenario wrote it, and as the vocabulary made it
                std::int64_t wrote = 0, made = 0;
                switch (e.op) {
                    case Op::kmalloc:
                    case Op::vmalloc: wrote = std::int64_t(st.args[0].number), made = e.size; break;
                    case Op::alloc_pages: wrote = made = std::int64_t(4096) << e.order; break;
                    case Op::skb_alloc: wrote = made = 4096 << 3; break;
                    case Op::stack_alloc: wrote = made = 16384; break;
                    case Op::pgtable_alloc: wrote = made = e.pgkind == 2 ? 512 : 4096; break;
                    case Op::reset_tag: {
                        const std::string from = name_of.at(st.args[0].name);
                        wrote = sizes.at(from), made = lock_sizes.at(from);
                        break;
                    }
                    default: break;
                }
                sizes[h] = wrote;
                lock_sizes[h] = made;
            }
            if (st.result.empty() && !st.args.empty() && !st.args[0].is_number && st.call != "kasan_check_async") {
                // a pick names the scenario's handle: "(pg3)" or "(pg3_p + 16" for pg3
                ASSERT_TRUE(name_of.count(st.args[0].name)) << where;
                const std::string h = name_of.at(st.args[0].name);
                EXPECT_TRUE(std::regex_search(line, std::regex("\\(" + h + "[_), ]"))) << where << ": " << line
                                                                                      << " is not on " << h;
                ++picks;
            }
            if (e.op == Op::access) {
                // in bounds, past the end or before the start, as the scenario had it
                std::smatch m;
                ASSERT_TRUE(std::regex_search(line, m, std::regex(R"(\((\w+)(?: ([+-]) (\d+))?, )"))) << line;
                const std::int64_t off = m[2].matched ? (m[2] == "-" ? -1 : 1) * std::stoll(m[3].str()) : 0;
                const std::int64_t want = st.args[0].offset + std::int64_t(st.args[1].number) - e.len;
                const std::int64_t size = std::int64_t(sizes.at(name_of.at(st.args[0].name)));
                auto side = [](std::int64_t o, std::int64_t sz) { return o < 0 ? -1 : o >= sz ? 1 : 0; };
                const std::int64_t vocab = std::int64_t(lock_sizes.at(name_of.at(st.args[0].name)));
                EXPECT_EQ(side(off, vocab), side(want, size)) << where << ": " << line;
                ++accesses;
            }
            ++events;
        }
        EXPECT_EQ(i, se.events.size()) << file;
    }
    std::fprintf(stderr, "%zu scenarios, %zu events, %zu of them picks of a handle, %zu accesses\n", scenarios, events,
                 picks, accesses);
    EXPECT_GE(scenarios, 40u);
    EXPECT_GE(picks, 100u);
    EXPECT_GE(accesses, 50u);
}

TEST(ScenarioSeeds, WhatTheVocabularyCannotSayIsRefused) {
    const kernel::Variant& v = kernel::find_variant("linux-7.0");
    Event kmalloc10;
    kmalloc10.op = Op::kmalloc;
    kmalloc10.size = 10;  // not in kmalloc_sizes()
    EXPECT_THROW(encode_events(DiffConfig{}, {kmalloc10}, v), InputError);
    Event far;
    far.op = Op::kfree;
    far.pick = 300;  // a byte holds the pick
    EXPECT_THROW(encode_events(DiffConfig{}, {far}, v), InputError);
    DiffConfig boot;
    boot.cmdline = "kasan.stacktrace=off";
    EXPECT_THROW(encode_events(boot, {}, v), InputError);
    boot.cmdline = "kasan.mode=async init_on_free=1 kasan.vmalloc=off";  // three words
    EXPECT_THROW(encode_events(boot, {}, v), InputError);
    EXPECT_THROW(encode_fuzz_input(kernel::find_variant("mutant-no-tcma"), {}, DiffConfig{}, {}), InputError);
}

// What an op reads of an event, written here apart from encode_events' own
// check, so a wrong encoding cannot agree with itself.
bool same_fields(const Event& a, const Event& b) {
    if (a.op != b.op || a.cpu != b.cpu) return false;
    switch (a.op) {
        case Op::alloc_pages: return a.order == b.order && a.gfp == b.gfp;
        case Op::kmalloc:
        case Op::vmalloc: return a.size == b.size && a.zero == b.zero;
        case Op::pgtable_alloc: return a.pgkind == b.pgkind;
        case Op::access: return a.pick == b.pick && a.where == b.where && a.len == b.len && a.kind == b.kind;
        case Op::stack_alloc:
        case Op::skb_alloc:
        case Op::check_async: return true;
        default: return a.pick == b.pick;
    }
}

TEST(ScenarioSeeds, EncodeIsTheInverseOfDecodeOnEveryByteString) {
    // sampled byte strings: configuration bytes (MTE and multi-shot bits,
    // word pairs) and one event; decode, encode, decode gives the same meaning
    const kernel::Variant& v = kernel::find_variant("sample-v3");
    std::size_t n = 0;
    for (unsigned c0 = 0; c0 < 256; c0 += 37)
        for (unsigned c1 = 0; c1 < 16; c1 += 5)
            for (unsigned b0 = 0; b0 < 256; b0 += 7)
                for (unsigned b1 = 0; b1 < 256; b1 += 31)
                    for (unsigned b2 = 0; b2 < 256; b2 += 41) {
                        const std::uint8_t in[6] = {std::uint8_t(c0), std::uint8_t(c1), std::uint8_t(b0),
                                                    std::uint8_t(b1), std::uint8_t(b2), std::uint8_t(b0 ^ b2 ^ c0)};
                        const Decoded d = decode_events(in, sizeof in, v);
                        const std::vector<std::uint8_t> again = encode_events(d.config, d.events, v);
                        const Decoded d2 = decode_events(again.data(), again.size(), v);
                        ASSERT_EQ(d2.config.cmdline, d.config.cmdline) << c0 << " " << c1;
                        ASSERT_EQ(d2.config.mte, d.config.mte) << c0 << " " << c1;
                        ASSERT_EQ(d2.events.size(), 1u);
                        ASSERT_TRUE(same_fields(d2.events[0], d.events[0])) << b0 << " " << b1 << " " << b2;
                        ++n;
                    }
    EXPECT_GT(n, 50000u);
}

}  // namespace

namespace {

// The configuration words the decoder and the generators add: a parameter
// once, a flag once (a flag used to be taken for present in any command line,
// so no decoded or generated configuration was ever multi-shot).
TEST(AddBootWord, AParameterOnceAFlagOnce) {
    std::string c;
    add_boot_word(c, "kasan_multi_shot");
    EXPECT_EQ(c, "kasan_multi_shot");
    add_boot_word(c, "kasan_multi_shot");
    EXPECT_EQ(c, "kasan_multi_shot");
    add_boot_word(c, "kasan.mode=asymm");
    add_boot_word(c, "kasan.mode=async");
    EXPECT_EQ(c, "kasan_multi_shot kasan.mode=asymm");
    std::string d = "kasan.page_alloc.sample=2";
    add_boot_word(d, "kasan.page_alloc.sample.order=1");  // another parameter, though it starts the same
    add_boot_word(d, "kasan_multi_shot");
    EXPECT_EQ(d, "kasan.page_alloc.sample=2 kasan.page_alloc.sample.order=1 kasan_multi_shot");
    const std::uint8_t multi[2] = {0x03, 0x00}, single[2] = {0x43, 0x00};
    const kernel::Variant& v = kernel::find_variant("linux-7.0");
    EXPECT_NE(decode_events(multi, 2, v).config.cmdline.find("kasan_multi_shot"), std::string::npos);
    EXPECT_EQ(decode_events(single, 2, v).config.cmdline.find("kasan_multi_shot"), std::string::npos);
}

}  // namespace
