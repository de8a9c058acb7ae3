// tree_lift_slab_parts_test.cpp — assign_tag() read in part
// (tree/lift_slab_parts.cpp), on made-up C in the shape every era writes (no
// kernel code in the project): the rule it reads as, proved equal to
// linux-7.0's; a patch's shapes (no fresh tag for plain caches, a fresh tag
// for constructor caches) differ, the controls; shapes the model's slab
// creation is not are refused with why.
#include <gtest/gtest.h>

#include <string>

#include "lifted_rows.hpp"
#include "read_part.hpp"

using namespace tagproof;
using test::read_part;
using test::rows_of;
using test::rule_line;

namespace {

// assign_tag with PLAIN the return for caches without a constructor and
// CTOR the one for those with one
std::string read_assign(const std::string& plain = "return init ? KASAN_TAG_KERNEL : kasan_random_tag();",
                        const std::string& ctor = "return init ? kasan_random_tag() : get_tag(object);",
                        const std::string& test = "!cache->ctor && !(cache->flags & SLAB_TYPESAFE_BY_RCU)") {
    const std::string text =
        "typedef unsigned char u8;\nenum { KASAN_TAG_KERNEL = 0xff, SLAB_TYPESAFE_BY_RCU = 0x80000 };\n"
        "struct kmem_cache { void (*ctor)(void *); unsigned int flags; };\n"
        "u8 kasan_random_tag(void);\nu8 get_tag(const void *);\n"
        "static inline u8 assign_tag(struct kmem_cache *cache, const void *object, _Bool init)\n{\n"
        "\tif (0)\n\t\treturn 0xff;\n"
        "\tif (" + test + ")\n\t\t" + plain + "\n\t" + ctor + "\n}\n";
    return read_part("mm/kasan/common.c", text, "assign_tag", tree::read_assign_tag);
}

}  // namespace

TEST(LiftSlabParts, AssignTagAsEveryEraWritesIt) {
    const std::string r = read_assign();
    EXPECT_EQ(rule_line(r, "slab_tag_per_alloc"),
              "rule slab_tag_per_alloc(ctor_or_rcu) = (IS_ENABLED(CONFIG_KASAN_SW_TAGS) || "
              "IS_ENABLED(CONFIG_KASAN_HW_TAGS)) && (ctor_or_rcu ? false : true)")
        << r;
    EXPECT_TRUE(rows_of(r, "linux-7.0", "slab_tag_per_alloc").at("slab_tag_per_alloc").equal);
}

TEST(LiftSlabParts, APatchsTagChoiceDiffers) {
    const std::string reuse = read_assign("return init ? KASAN_TAG_KERNEL : get_tag(object);");
    EXPECT_NE(rule_line(reuse, "slab_tag_per_alloc").find("(ctor_or_rcu ? false : false)"), std::string::npos) << reuse;
    EXPECT_FALSE(rows_of(reuse, "linux-7.0", "slab_tag_per_alloc").at("slab_tag_per_alloc").equal);
    const std::string fresh = read_assign("return init ? KASAN_TAG_KERNEL : kasan_random_tag();",
                                          "return init ? kasan_random_tag() : kasan_random_tag();");
    EXPECT_NE(rule_line(fresh, "slab_tag_per_alloc").find("(ctor_or_rcu ? true : true)"), std::string::npos) << fresh;
    EXPECT_FALSE(rows_of(fresh, "linux-7.0", "slab_tag_per_alloc").at("slab_tag_per_alloc").equal);
}

TEST(LiftSlabParts, ShapesTheModelDoesNotHaveAreRefused) {
    // a new slab's plain objects tagged at creation: the model has them KASAN_TAG_KERNEL until allocated
    EXPECT_NE(read_assign("return init ? kasan_random_tag() : kasan_random_tag();").find("tags a new slab's objects"),
              std::string::npos);
    // an allocated object tagged with a constant
    EXPECT_NE(read_assign("return init ? KASAN_TAG_KERNEL : KASAN_TAG_KERNEL;").find("neither a fresh tag"),
              std::string::npos);
    // another cache test
    EXPECT_NE(read_assign("return init ? KASAN_TAG_KERNEL : kasan_random_tag();",
                          "return init ? kasan_random_tag() : get_tag(object);", "!cache->ctor")
                  .find("not (! cache -> ctor && ! ( cache -> flags & SLAB_TYPESAFE_BY_RCU ))"),
              std::string::npos);
}

namespace {

// slab_post_alloc_hook with KASAN's init argument KINIT (and, when it is
// kasan_init, its declaration) and the memset's condition COND
std::string read_post_alloc(const std::string& kinit, const std::string& cond) {
    const std::string text =
        "typedef unsigned long size_t;\ntypedef unsigned int gfp_t;\nstruct kmem_cache { unsigned int object_size; };\n"
        "void *kasan_slab_alloc(struct kmem_cache *, void *, gfp_t, _Bool);\n_Bool kasan_has_integrated_init(void);\n"
        "void *memset(void *, int, size_t);\n"
        "_Bool slab_post_alloc_hook(struct kmem_cache *s, gfp_t flags, size_t size, void **p, _Bool init)\n{\n"
        "\tsize_t i;\n" + std::string(kinit == "kasan_init" ? "\t_Bool kasan_init = init;\n" : "") +
        "\tfor (i = 0; i < size; i++) {\n"
        "\t\tp[i] = kasan_slab_alloc(s, p[i], flags, " + kinit + ");\n"
        "\t\tif (" + cond + ")\n\t\t\tmemset(p[i], 0, s->object_size);\n\t}\n\treturn 1;\n}\n";
    // (the kernel's bool is _Bool: `bool kasan_init` as written there)
    std::string t = text;
    for (std::size_t at; (at = t.find("\t_Bool kasan_init")) != std::string::npos;) t.replace(at, 6, "\tbool");
    return read_part("mm/slub.c", "typedef _Bool bool;\n" + t, "slab_post_alloc_hook", tree::read_slab_memset_init);
}

}  // namespace

// v6.1's and v6.9's shapes read as the hand rule; a patch that drops the
// memset whenever KASAN was asked to initialise differs (the control); a
// different init handed to KASAN is refused.
TEST(LiftSlabParts, SlabMemsetInitFromTheMemsetsCondition) {
    const std::string v61 = read_post_alloc("init", "p[i] && init && !kasan_has_integrated_init()");
    const std::string v69 = read_post_alloc("kasan_init", "p[i] && init && (!kasan_init || !kasan_has_integrated_init())");
    for (const std::string* r : {&v61, &v69}) {
        EXPECT_NE(rule_line(*r, "slab_memset_init"), "") << *r;
        EXPECT_TRUE(rows_of(*r, "linux-7.0", "slab_memset_init").at("slab_memset_init").equal) << *r;
    }
    const std::string dropped = read_post_alloc("kasan_init", "p[i] && init && !kasan_init");
    const auto row = rows_of(dropped, "linux-7.0", "slab_memset_init").at("slab_memset_init");
    EXPECT_FALSE(row.equal) << dropped;
    EXPECT_NE(read_post_alloc("0", "p[i] && init").find("is given 0 for init"), std::string::npos);
}

namespace {

// a free's poisoning function: BODY between the object's untagging and the
// end, written as v6.1's ____kasan_slab_free or v6.12's poison_slab_object
std::string read_free(const std::string& name, const std::string& body) {
    const std::string text =
        "typedef _Bool bool;\ntypedef unsigned char u8;\nenum { SLAB_TYPESAFE_BY_RCU = 0x80000, KASAN_SLAB_FREE = 0xfb, "
        "KASAN_GRANULE_SIZE = 16, KASAN_REPORT_INVALID_FREE, KASAN_REPORT_DOUBLE_FREE };\n"
        "struct kmem_cache { unsigned int object_size; unsigned int flags; };\n"
        "#define round_up(x, y) ((((x)-1) | ((y)-1)) + 1)\n#define unlikely(x) (x)\n#define likely(x) (x)\n"
        "bool kasan_arch_is_ready(void);\nbool is_kfence_address(const void *);\nvoid *kasan_reset_tag(const void *);\n"
        "bool kasan_byte_accessible(const void *);\nvoid *nearest_obj(struct kmem_cache *, const void *);\n"
        "void kasan_report_invalid_free(void *, unsigned long, int);\n"
        "void kasan_poison(const void *, unsigned long, u8, bool);\n"
        "static inline bool " + name + "(struct kmem_cache *cache, void *object, unsigned long ip, bool init, "
        "bool still_accessible)\n{\n\tvoid *tagged_object = object;\n\n\tobject = kasan_reset_tag(object);\n" + body +
        "\treturn 0;\n}\n";
    return read_part("mm/kasan/common.c", text, name, tree::read_slab_free_poison);
}

const std::string kPoison = "\tkasan_poison(object, round_up(cache->object_size, KASAN_GRANULE_SIZE),\n"
                            "\t\t\tKASAN_SLAB_FREE, init);\n";

}  // namespace

// v6.12's poison_slab_object and v6.1's ____kasan_slab_free (its RCU flags
// test among the free's checks, which the model makes elsewhere) read as the
// hand rule of their eras; a patch that poisons RCU objects too, and one
// that never poisons, differ (the controls); the test moved onto the call
// itself reads the same; shapes the model's free is not are refused.
TEST(LiftSlabParts, SlabFreePoisonFromTheReturnsBeforeIt) {
    const std::string v612 = read_free("poison_slab_object", "\tif (unlikely(still_accessible))\n\t\treturn 0;\n" + kPoison);
    EXPECT_EQ(rule_line(v612, "slab_free_poisons"),
              "rule slab_free_poisons(still_accessible) = kasan_enabled && !(( still_accessible ))")
        << v612;
    EXPECT_TRUE(rows_of(v612, "linux-7.0", "slab_free_poisons").at("slab_free_poisons").equal) << v612;
    const std::string v61 = read_free(
        "____kasan_slab_free",
        "\tif (!kasan_arch_is_ready())\n\t\treturn 0;\n\tif (is_kfence_address(object))\n\t\treturn 0;\n"
        "\tif (unlikely(nearest_obj(cache, object) != object)) {\n"
        "\t\tkasan_report_invalid_free(tagged_object, ip, KASAN_REPORT_INVALID_FREE);\n\t\treturn 1;\n\t}\n"
        "\tif (unlikely(cache->flags & SLAB_TYPESAFE_BY_RCU))\n\t\treturn 0;\n"
        "\tif (!kasan_byte_accessible(tagged_object)) {\n"
        "\t\tkasan_report_invalid_free(tagged_object, ip, KASAN_REPORT_DOUBLE_FREE);\n\t\treturn 1;\n\t}\n" + kPoison);
    EXPECT_EQ(rule_line(v61, "slab_free_poisons"),
              "rule slab_free_poisons(still_accessible) = kasan_enabled && !(( still_accessible ))")
        << v61;
    EXPECT_TRUE(rows_of(v61, "linux-6.1", "slab_free_poisons").at("slab_free_poisons").equal) << v61;
    const std::string guarded = read_free("poison_slab_object", "\tif (likely(!still_accessible))\n" + kPoison);
    EXPECT_TRUE(rows_of(guarded, "linux-7.0", "slab_free_poisons").at("slab_free_poisons").equal) << guarded;
    // the controls
    const std::string rcu_too = read_free("poison_slab_object", kPoison);
    EXPECT_EQ(rule_line(rcu_too, "slab_free_poisons"), "rule slab_free_poisons(still_accessible) = kasan_enabled");
    EXPECT_FALSE(rows_of(rcu_too, "linux-7.0", "slab_free_poisons").at("slab_free_poisons").equal) << rcu_too;
    const std::string never = read_free("poison_slab_object", "\tif (still_accessible || !still_accessible)\n\t\treturn 0;\n" + kPoison);
    EXPECT_FALSE(rows_of(never, "linux-7.0", "slab_free_poisons").at("slab_free_poisons").equal) << never;
    // refused
    EXPECT_NE(read_free("poison_slab_object", "\treturn 0;\n" + kPoison).find("under no if"), std::string::npos);
    EXPECT_NE(read_free("poison_slab_object", "\tkasan_poison(object, cache->object_size, KASAN_SLAB_FREE, init);\n")
                  .find("not the model's"),
              std::string::npos);
    EXPECT_NE(read_free("poison_slab_object", "\tif (init)\n\tif (!still_accessible)\n" + kPoison).find("more than one if"),
              std::string::npos);
    EXPECT_NE(read_free("poison_slab_object", "").find("does not call kasan_poison()"), std::string::npos);
}

namespace {

// slab_free_hook with still_accessible declared as DECL and the KASAN hook
// given HOOK_ARG (v6.12's shape), then BODY
std::string read_free_hook(const std::string& decl, const std::string& hook_arg = "still_accessible",
                           const std::string& body = "") {
    const std::string text =
        "typedef _Bool bool;\nenum { SLAB_TYPESAFE_BY_RCU = 0x80000 };\n"
        "struct kmem_cache { unsigned int flags; };\n"
        "bool kasan_slab_pre_free(struct kmem_cache *, void *);\n"
        "bool kasan_slab_free(struct kmem_cache *, void *, bool, bool);\n"
        "static inline bool slab_free_hook(struct kmem_cache *s, void *x, bool init, bool after_rcu_delay)\n{\n"
        "\t" + decl + "\n\n\tif (kasan_slab_pre_free(s, x))\n\t\treturn 0;\n" + body +
        "\treturn !kasan_slab_free(s, x, init, " + hook_arg + ");\n}\n";
    return read_part("mm/slub.c", text, "slab_free_hook", tree::read_slab_free_hook);
}

}  // namespace

// v6.12's still_accessible reads as the hand rule (and as 6.1's, where no
// deferral makes after_rcu_delay true); the conjuncts swapped, the same; a
// patch that drops `&& !after_rcu_delay` differs (the control: the free after
// the grace period would find the object still accessible and never poison
// it); v6.1's shape (the hook given no still_accessible), a second write,
// and another test of the cache are refused.
TEST(LiftSlabParts, SlabFreeStillAccessibleFromItsInitializer) {
    const std::string v612 = read_free_hook("bool still_accessible = (s->flags & SLAB_TYPESAFE_BY_RCU) && !after_rcu_delay;");
    EXPECT_EQ(rule_line(v612, "slab_free_still_accessible"),
              "rule slab_free_still_accessible(typesafe_by_rcu, after_rcu_delay) = typesafe_by_rcu && ! after_rcu_delay")
        << v612;
    for (const char* era : {"linux-7.0", "linux-6.1"})
        EXPECT_TRUE(rows_of(v612, era, "slab_free_still_accessible").at("slab_free_still_accessible").equal) << era;
    const std::string swapped = read_free_hook("bool still_accessible = !after_rcu_delay && (s->flags & SLAB_TYPESAFE_BY_RCU);");
    EXPECT_TRUE(rows_of(swapped, "linux-7.0", "slab_free_still_accessible").at("slab_free_still_accessible").equal);
    const std::string dropped = read_free_hook("bool still_accessible = s->flags & SLAB_TYPESAFE_BY_RCU;");
    EXPECT_EQ(rule_line(dropped, "slab_free_still_accessible"),
              "rule slab_free_still_accessible(typesafe_by_rcu, after_rcu_delay) = typesafe_by_rcu");
    EXPECT_FALSE(rows_of(dropped, "linux-7.0", "slab_free_still_accessible").at("slab_free_still_accessible").equal);
    EXPECT_NE(read_free_hook("bool still_accessible = 0;", "0").find("not given still_accessible"), std::string::npos);
    EXPECT_NE(read_free_hook("bool still_accessible = 0;", "still_accessible", "\tstill_accessible = init;\n")
                  .find("written again"),
              std::string::npos);
    EXPECT_NE(read_free_hook("bool still_accessible = s->flags != 0;").find("otherwise than its SLAB_TYPESAFE_BY_RCU"),
              std::string::npos);
}

namespace {

// an allocation's unpoisoning, BODY after the declarations, written as
// v6.12's unpoison_slab_object or v6.1's __kasan_slab_alloc
std::string read_unpoison(const std::string& name, const std::string& body) {
    const std::string text =
        "typedef _Bool bool;\ntypedef unsigned int gfp_t;\n#define NULL ((void *)0)\n#define unlikely(x) (x)\n"
        "struct kmem_cache { unsigned int object_size; };\n"
        "bool is_kfence_address(const void *);\nvoid kasan_unpoison(const void *, unsigned long, bool);\n"
        "static inline void *" + name + "(struct kmem_cache *cache, void *object, gfp_t flags, bool init)\n{\n" + body +
        "\treturn object;\n}\n";
    return read_part("mm/kasan/common.c", text, name, tree::read_slab_alloc_unpoison);
}

}  // namespace

// v6.12's unpoison_slab_object and v6.1's __kasan_slab_alloc (after its
// NULL and KFENCE returns) read as the hand rule; a patch that unpoisons
// without init differs (the control); a different size, the call under an
// if, and another return before it are refused.
TEST(LiftSlabParts, SlabAllocKasanInitFromTheUnpoison) {
    const std::string v612 = read_unpoison("unpoison_slab_object", "\tkasan_unpoison(object, cache->object_size, init);\n");
    EXPECT_EQ(rule_line(v612, "slab_alloc_kasan_init"), "rule slab_alloc_kasan_init(init) = init") << v612;
    EXPECT_TRUE(rows_of(v612, "linux-7.0", "slab_alloc_kasan_init").at("slab_alloc_kasan_init").equal);
    const std::string v61 = read_unpoison(
        "__kasan_slab_alloc",
        "\tif (unlikely(object == NULL))\n\t\treturn NULL;\n\tif (is_kfence_address(object))\n\t\treturn object;\n"
        "\tkasan_unpoison(object, cache->object_size, init);\n");
    EXPECT_TRUE(rows_of(v61, "linux-6.1", "slab_alloc_kasan_init").at("slab_alloc_kasan_init").equal) << v61;
    const std::string none = read_unpoison("unpoison_slab_object", "\tkasan_unpoison(object, cache->object_size, 0);\n");
    EXPECT_FALSE(rows_of(none, "linux-7.0", "slab_alloc_kasan_init").at("slab_alloc_kasan_init").equal) << none;
    EXPECT_NE(read_unpoison("unpoison_slab_object", "\tkasan_unpoison(object, 64, init);\n").find("not the model's"),
              std::string::npos);
    EXPECT_NE(read_unpoison("unpoison_slab_object", "\tif (init)\n\t\tkasan_unpoison(object, cache->object_size, init);\n")
                  .find("is under if"),
              std::string::npos);
    EXPECT_NE(read_unpoison("unpoison_slab_object",
                            "\tif (flags)\n\t\treturn object;\n\tkasan_unpoison(object, cache->object_size, init);\n")
                  .find("the model unpoisons every object"),
              std::string::npos);
}
