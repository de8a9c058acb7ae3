// Boot parameters: the kernel's defaults, its parsing, and its handling of
// bad values (kept or reset, never silently accepted by the strict parser).
#include <gtest/gtest.h>

#include "boot_params.hpp"
#include "config.hpp"
#include "runtime.hpp"
#include "error.hpp"

using namespace tagproof;

TEST(BootParams, Defaults) {
    BootParams p = parse_boot_params("");
    EXPECT_EQ(p.kasan, KasanArg::deflt);
    EXPECT_EQ(p.mode, TagCheckMode::sync);
    EXPECT_TRUE(p.vmalloc);
    EXPECT_EQ(p.page_alloc_sample, 1u);
    EXPECT_EQ(p.page_alloc_sample_order, 3u);
    EXPECT_TRUE(p.stacktrace);
    EXPECT_EQ(p.fault, FaultPolicy::report);
    EXPECT_FALSE(p.write_only);
    EXPECT_FALSE(p.init_on_alloc);
    EXPECT_TRUE(p.diagnostics.empty());
}

TEST(BootParams, EveryParameter) {
    BootParams p = parse_boot_params(
        "kasan=on kasan.mode=asymm kasan.vmalloc=off kasan.page_alloc.sample=0x10 "
        "kasan.page_alloc.sample.order=2 kasan.stacktrace=off kasan.fault=panic_on_write "
        "kasan.write_only=on kasan_multi_shot init_on_alloc=1 init_on_free=on root=/dev/vda quiet");
    EXPECT_TRUE(p.diagnostics.empty());
    EXPECT_EQ(p.kasan, KasanArg::on);
    EXPECT_EQ(p.mode, TagCheckMode::asymm);
    EXPECT_FALSE(p.vmalloc);
    EXPECT_EQ(p.page_alloc_sample, 16u);
    EXPECT_EQ(p.page_alloc_sample_order, 2u);
    EXPECT_FALSE(p.stacktrace);
    EXPECT_EQ(p.fault, FaultPolicy::panic_on_write);
    EXPECT_TRUE(p.write_only);
    EXPECT_TRUE(p.multi_shot);
    EXPECT_TRUE(p.init_on_alloc);
    EXPECT_TRUE(p.init_on_free);
    EXPECT_EQ(p.not_modelled, (std::vector<std::string>{"root=/dev/vda", "quiet"}));
    EXPECT_EQ(parse_boot_params(p.to_cmdline()).to_cmdline(), p.to_cmdline());
}

TEST(BootParams, BadValuesFollowTheKernel) {
    // sample=0 and sample > LONG_MAX reset to 1; a non-number keeps the old value
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample=5 kasan.page_alloc.sample=0").page_alloc_sample, 1u);
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample=5 kasan.page_alloc.sample=x").page_alloc_sample, 5u);
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample=9223372036854775808").page_alloc_sample, 1u);
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample.order=2147483648").page_alloc_sample_order, 3u);
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample.order=-1").page_alloc_sample_order, 3u);
    EXPECT_EQ(parse_boot_params("kasan.mode=fast").mode, TagCheckMode::sync);
    EXPECT_EQ(parse_boot_params("kasan=maybe").kasan, KasanArg::deflt);
    EXPECT_EQ(parse_boot_params("init_on_alloc=maybe").diagnostics.size(), 1u);
    EXPECT_EQ(parse_boot_params("kasan.mode").diagnostics.size(), 1u);  // NULL arg -> -EINVAL
    EXPECT_EQ(parse_boot_params("kasan.smaple=3").diagnostics.size(), 1u);
    // __setup("kasan_multi_shot"): obsolete_checksetup() hands "=1" to a handler that ignores it
    EXPECT_EQ(parse_boot_params("kasan_multi_shot=1").diagnostics.size(), 0u);
}

TEST(BootParams, StrictParserNamesTheParameter) {
    try {
        parse_boot_params_strict("kasan=on kasan.fault=explode", "f.litmus:3");
        FAIL() << "no error";
    } catch (const InputError& e) {
        std::string m = e.what();
        EXPECT_NE(m.find("f.litmus:3"), std::string::npos);
        EXPECT_NE(m.find("kasan.fault=explode"), std::string::npos);
    }
}

TEST(BootParams, EraSyntax) {
    BootParamSyntax v61;
    v61.page_alloc_sample = v61.page_alloc_sample_order = v61.write_only = v61.fault_panic_on_write = false;
    EXPECT_EQ(parse_boot_params("kasan.page_alloc.sample=4", v61).diagnostics.size(), 1u);
    EXPECT_EQ(parse_boot_params("kasan.write_only=on", v61).diagnostics.size(), 1u);
    EXPECT_EQ(parse_boot_params("kasan.fault=panic_on_write", v61).diagnostics.size(), 1u);
}

TEST(Runtime, HwTagsNeedsMteAndKasanOn) {
    BuildConfig hw;
    Machine m;
    EXPECT_TRUE(derive_runtime(hw, m, parse_boot_params("")).hw_tags_enabled);
    EXPECT_FALSE(derive_runtime(hw, m, parse_boot_params("kasan=off")).kasan_enabled);
    m.mte = false;
    EXPECT_FALSE(derive_runtime(hw, m, parse_boot_params("")).kasan_enabled);
    BuildConfig gen;
    gen.mode = Mode::generic;
    RuntimeState r = derive_runtime(gen, m, parse_boot_params("kasan=off"));
    EXPECT_TRUE(r.kasan_enabled);  // kasan= is a HW_TAGS parameter
    EXPECT_FALSE(r.hw_tags_enabled);
}

TEST(Runtime, FallbacksOfTheCpu) {
    BuildConfig hw;
    Machine m;
    m.mte_asymm = false;
    m.mte_store_only = false;
    RuntimeState r = derive_runtime(hw, m, parse_boot_params("kasan.mode=asymm kasan.write_only=on"));
    EXPECT_EQ(r.check_mode, TagCheckMode::sync);
    EXPECT_FALSE(r.write_only);
    BuildConfig novm;
    novm.kasan_vmalloc = false;
    EXPECT_FALSE(derive_runtime(novm, Machine{}, parse_boot_params("")).vmalloc_on);
}

// lib/cmdline.c next_arg(): quotes group blanks and are removed; a bare "--"
// ends the kernel's parameters (kernel/params.c parse_args()).
TEST(BootParams, SplitsAsNextArgDoes) {
    auto one = [](const std::string& s) {
        auto v = split_cmdline(s);
        EXPECT_EQ(v.size(), 1u) << s;
        return v.empty() ? CmdlineArg{} : v[0];
    };
    CmdlineArg a = one("kasan.mode=\"async\"");
    EXPECT_EQ(a.param, "kasan.mode");
    EXPECT_EQ(a.value, "async");
    a = one("\"kasan.mode=asymm\"");
    EXPECT_EQ(a.param, "kasan.mode");
    EXPECT_EQ(a.value, "asymm");
    a = one("foo=\"a b  c\"");
    EXPECT_EQ(a.value, "a b  c");
    a = one("\"quiet\"");
    EXPECT_EQ(a.param, "quiet");
    EXPECT_FALSE(a.has_value);
    a = one("k=\"");  // the opening quote is the last character: the value is empty
    EXPECT_TRUE(a.has_value);
    EXPECT_EQ(a.value, "");
    a = one("k=\"open ended");  // an unclosed quote runs to the end of the line
    EXPECT_EQ(a.value, "open ended");
    a = one("k=a=b");  // the first '=' splits
    EXPECT_EQ(a.value, "a=b");
    std::string init;
    auto v = split_cmdline("  kasan=on\t--  kasan=off single ", &init);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].param, "kasan");
    EXPECT_EQ(init, "kasan=off single ");
    // next_arg() strips the quotes before parse_args() compares: a quoted "--" ends too
    EXPECT_EQ(split_cmdline("a \"--\" b", &init).size(), 1u);
    EXPECT_EQ(init, "b");
}

TEST(BootParams, QuotesDashesAndInitArguments) {
    BootParams p = parse_boot_params("kasan.mode=\"async\" kasan.page-alloc.sample=4 -- kasan=off");
    EXPECT_TRUE(p.diagnostics.empty());
    EXPECT_EQ(p.mode, TagCheckMode::async);
    EXPECT_EQ(p.page_alloc_sample, 4u);  // parameq(): '-' and '_' are the same
    EXPECT_EQ(p.kasan, KasanArg::deflt);  // after "--": init's
    EXPECT_EQ(p.init_args, "kasan=off");
    // __setup("kasan_multi_shot"): the handler ignores what follows the name
    EXPECT_TRUE(parse_boot_params("kasan_multi_shot=0").multi_shot);
    EXPECT_THROW(parse_boot_params_strict("kasan.mode=\"a sync\"", "cmdline"), InputError);
}
