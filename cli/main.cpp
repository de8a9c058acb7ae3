// main.cpp — `tagproof VERB ...`.
#include <malloc.h>

#include <cstring>
#include <filesystem>
#include <iostream>

#include "error.hpp"
#include "file/variant_file.hpp"
#include "option_table.hpp"
#include "verbs.hpp"

using namespace tagproof;

static const char* kUsage =
    "usage: tagproof VERB [options]\n"
    "\n"
    "  review               review every built-in variant (or --variant X) over the scenario corpus\n"
    "                       (run, review, prove, explore, kernel: --variant-file F reads a variant file,\n"
    "                       scenario/variant-files.md, and works on it unless --variant says otherwise)\n"
    "  prove                Z3 proofs of the invariants over a variant's decision code\n"
    "  run FILE...          run scenario files, one verdict line per file and mode\n"
    "  variants             list the built-in variants (--mutants: the negative controls too)\n"
    "  accessinfo SYMBOL    decode __hwasan_check_x<reg>_<accessinfo>, an AccessInfo or a KASAN BRK immediate\n"
    "  explore              the reachable state graph of the small instance, shortest counterexamples\n"
    "  report FILE          the review report of one counterexample scenario\n"
    "  cost                 tagging work of a workload on the reference, variant vs baseline\n"
    "  replay FILE          replay a kmem ftrace on the reference: invariants and cost\n"
    "  bench                the benchmarks, held to their speed targets (ratios of one run)\n"
    "  seeds SCENARIO...    the scenarios' HW_TAGS events as seeds of the event fuzz targets\n"
    "  gfp STRING|NUMBER    parse and print GFP flags as the kernel prints them\n"
    "  boot CMDLINE         parse a kernel command line and show the KASAN state it gives\n"
    "  kernel ...           the kernel oracle: scenarios as a KUnit suite, a real kernel's results\n"
    "  lift --tree DIR      what the model reads from a kernel tree, beside the hand-written era\n"
    "                       (KUnit KTAP, KASAN reports) set beside the model's\n"
    "\n"
    "`tagproof VERB --help` describes a verb. Exit status: 0 all verdicts as expected,\n"
    "1 counterexample (an unexpected verdict), 2 bad input, 3 unknown.\n";

// Z3 builds and frees a few hundred MB of terms per obligation. glibc's
// default gives the freed top of the heap back to the kernel at once and
// serves large blocks with fresh mmaps, so every obligation page-faulted its
// memory in again: a third of `tagproof prove`'s time (sys 2.0 s of 6.1 s for
// one variant, reports/PERFORMANCE.md). Keep freed memory for reuse instead.
// (With jemalloc linked, as the build does where libjemalloc-dev is
// installed, these set glibc's unused heap and model/core/jemalloc_conf.cpp
// does the same for jemalloc's.)
static void keep_freed_memory() {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);  // the largest threshold glibc takes (64-bit)
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
}

int main(int argc, char** argv) {
    keep_freed_memory();
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
        std::cout << kUsage;
        return argc < 2 ? cli::EXIT_BAD_INPUT : 0;
    }
    std::string verb = argv[1];
    cli::Args args(argv + 2, argv + argc);
    // every verb's options, from the one table the verbs parse with
    if (verb == "--options") return cli::print_option_table();
    try {
        // --variant-file F (the verbs the option table marks): read and register
        // the file's variant; without --variant it is the one the verb works on.
        bool reads_variant_file = false;
        for (const auto& v : cli::verb_options()) reads_variant_file |= v.verb == verb && v.variant_file;
        if (reads_variant_file) {
            cli::Args rest;
            std::string first;
            bool named = false;
            for (std::size_t i = 0; i < args.size(); ++i) {
                if (args[i] == "--variant-file") {
                    if (i + 1 >= args.size()) throw InputError("--variant-file", "needs a file");
                    const std::string n = kernel::load_variant_file(args[++i]).name();
                    if (first.empty()) first = n;
                    continue;
                }
                named |= args[i] == "--variant";
                rest.push_back(args[i]);
            }
            if (!first.empty() && !named) {
                rest.push_back("--variant");
                rest.push_back(first);
            }
            args = rest;
        }
        if (verb == "run") return cli::verb_run(args);
        if (verb == "variants") return cli::verb_variants(args);
        if (verb == "gfp") return cli::verb_gfp(args);
        if (verb == "boot") return cli::verb_boot(args);
        if (verb == "review") return cli::verb_review(args);
        if (verb == "prove") return cli::verb_prove(args);
        if (verb == "accessinfo") return cli::verb_accessinfo(args);
        if (verb == "cost") return cli::verb_cost(args);
        if (verb == "explore") return cli::verb_explore(args);
        if (verb == "report") return cli::verb_report(args);
        if (verb == "replay") return cli::verb_replay(args);
        if (verb == "seeds") return cli::verb_seeds(args);
        if (verb == "bench") return cli::verb_bench(args);
        if (verb == "kernel") return cli::verb_kernel(args);
        if (verb == "lift") return cli::verb_lift(args);
        std::cerr << "tagproof: unknown verb '" << error_text::printable(verb) << "'\n" << kUsage;
        return cli::EXIT_BAD_INPUT;
    } catch (const InputError& e) {
        std::cerr << "tagproof: error: " << e.what() << "\n";
        return cli::EXIT_BAD_INPUT;
    } catch (const std::filesystem::filesystem_error& e) {
        // a path the user named (--out /proc/nope, a read-only directory):
        // bad input, said as the path and the system's reason
        std::string where = e.path1().string();
        if (!e.path2().empty()) where += " -> " + e.path2().string();
        std::cerr << "tagproof: error: " << error_text::printable(where + ": " + e.code().message()) << "\n";
        return cli::EXIT_BAD_INPUT;
    } catch (const std::bad_alloc&) {
        std::cerr << "tagproof: internal error: out of memory (an input the parsers let through should have been "
                     "refused: please report it)\n";
        return cli::EXIT_UNKNOWN;
    } catch (const std::exception& e) {
        std::cerr << "tagproof: internal error: " << error_text::printable(e.what()) << "\n";
        return cli::EXIT_UNKNOWN;
    }
}
