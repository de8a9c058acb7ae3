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
    EXPECT_EQ(parse_boot_params("kasan_multi_shot=1").diagnostics.size(), 1u);
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
