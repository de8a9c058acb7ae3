// state_key.hpp — the whole state of a Model as bytes: two models with the
// same key can do the same under every later event (what the explorer merges
// states by). Everything an event, a decision or the oracle reads is in it;
// only what is printed (reports, notes, labels, the event counter) is not,
// and neither are the tags drawn once and held nowhere now (seen_elsewhere_):
// they change the weights of later tag choices (a tag equal to one of them
// is its own option) but not which outcomes are possible, as a fresh tag
// stands for them.
// `held`: pointers kept outside the model (a run's variables), which are
// state too. Under HW_TAGS tags are up to renaming: every value but the
// constants (0xFF, 0xFE, 0x00, 0xF0 and the configuration's distinguished
// tags) is named by first appearance, so states that differ only by which
// random tags were drawn are one (random_tag() compares tags only for
// equality, with each other and with those constants). The page tag is
// taken as page_kasan_tag() decodes it, the only way the model reads it.
#pragma once
#include <string>
#include <vector>

#include "model.hpp"

namespace tagproof::spec {

std::string state_key(const Model& m, const std::vector<Ptr>& held = {});
// The same key into `out` (replacing what it held), reusing its capacity.
void state_key_into(const Model& m, const std::vector<Ptr>& held, std::string& out);

}  // namespace tagproof::spec
