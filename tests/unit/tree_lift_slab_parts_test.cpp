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
