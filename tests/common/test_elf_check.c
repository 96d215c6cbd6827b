/* The ELF check that keeps a damaged library away from dlopen: a real
 * shared object passes; cut-off, empty, text, other-class, other-machine
 * and non-library copies of it fail, each with its own reason.  And the
 * search for the file dlopen would map: LD_LIBRARY_PATH first, copies of
 * another class passed over, a damaged one named. */
#define _GNU_SOURCE
#include "test_util.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_check.h"
#include "lib_search.h"

static char library[4096];  /* a shared object this process has mapped */
static char dir[] = "/tmp/simtbench-elf-XXXXXX";
static unsigned char *image; /* its bytes */
static size_t image_size;

/* A shared object in /proc/self/maps whose path contains want. */
static int find_mapped(const char *want, char *path, size_t n)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096 + 128];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f)) {
        char *p = strchr(line, '/');
        if (!p)
            continue;
        p[strcspn(p, "\n")] = '\0';
        if (strstr(p, ".so") && strstr(p, want) && snprintf(path, n, "%s", p) < (int)n)
            found = 1;
    }
    if (f)
        fclose(f);
    return found;
}

/* The C library, or failing that any shared object this process maps. */
static int find_mapped_library(char *path, size_t n)
{
    return find_mapped("/libc.so", path, n) || find_mapped("/", path, n);
}

static int load_image(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    image_size = (size_t)ftell(f);
    rewind(f);
    image = malloc(image_size);
    int ok = image && fread(image, 1, image_size, f) == image_size;
    fclose(f);
    return ok ? 0 : -1;
}

/* Writes the first len bytes of the image, with bytes[at] = value when at
 * is not (size_t)-1, to dir/name; returns that path (static). */
static const char *write_copy(const char *name, size_t len, size_t at, unsigned char value)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    unsigned char saved = at < image_size ? image[at] : 0;
    if (at < image_size)
        image[at] = value;
    assert_int_equal(fwrite(image, 1, len, f), len);
    if (at < image_size)
        image[at] = saved;
    fclose(f);
    return path;
}

/* sb_elf_check refuses path with a reason that starts with want. */
static void refused(const char *path, const char *want)
{
    char why[256] = "";
    assert_int_equal(sb_elf_check(path, why, sizeof why), -1);
    if (strncmp(why, want, strlen(want)) != 0)
        fail_msg("%s: \"%s\", expected \"%s...\"", path, why, want);
}

static void a_real_library_passes(void **state)
{
    (void)state;
    char why[256] = "";
    if (sb_elf_check(library, why, sizeof why) != 0)
        fail_msg("%s: %s", library, why);
    assert_int_equal(sb_elf_is_foreign(library), 0);
}

static void a_truncated_copy_fails(void **state)
{
    (void)state;
    char want[96];
    snprintf(want, sizeof want, "truncated: %zu bytes, segments need", image_size / 2);
    refused(write_copy("half.so", image_size / 2, (size_t)-1, 0), want);
    refused(write_copy("head.so", 100, (size_t)-1, 0), "truncated: 100 bytes, program headers need");
    refused(write_copy("ident.so", 10, (size_t)-1, 0), "truncated: 10 bytes, the ELF header needs");
    /* The section header table ends the file: only it is cut short. */
    char want_tail[96];
    snprintf(want_tail, sizeof want_tail, "truncated: %zu bytes, the section header table needs",
             image_size - 10);
    refused(write_copy("tail.so", image_size - 10, (size_t)-1, 0), want_tail);
}

static void empty_and_text_files_fail(void **state)
{
    (void)state;
    refused(write_copy("empty.so", 0, (size_t)-1, 0), "empty file (0 bytes)");
    char path[4200];
    snprintf(path, sizeof path, "%s/text.so", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("/* GNU ld script */\nGROUP ( libc.so.6 )\n", f);
    fclose(f);
    refused(path, "not an ELF file");
    assert_int_equal(sb_elf_is_foreign(path), 0);
    refused(dir, "not a regular file");
    snprintf(path, sizeof path, "%s/missing.so", dir);
    refused(path, "cannot be read");
}

/* A copy of the other class or machine is refused, and is foreign: the
 * loader would pass over it rather than take it. */
static void other_class_and_machine_fail(void **state)
{
    (void)state;
    char want[64];
    int bits = (int)sizeof(void *) * 8;
    snprintf(want, sizeof want, "ELF class %d, this program is %d-bit", bits == 64 ? 32 : 64,
             bits);
    const char *path =
        write_copy("class.so", image_size, EI_CLASS, bits == 64 ? ELFCLASS32 : ELFCLASS64);
    refused(path, want);
    assert_int_equal(sb_elf_is_foreign(path), 1);
    /* e_machine's low byte, little-endian on the machines CI runs on. */
    unsigned char other = image[EI_NIDENT + 2] == EM_AARCH64 ? EM_X86_64 : EM_AARCH64;
    path = write_copy("machine.so", image_size, EI_NIDENT + 2, other);
    refused(path, "built for ");
    assert_int_equal(sb_elf_is_foreign(path), 1);
}

static void an_object_that_is_not_a_library_fails(void **state)
{
    (void)state;
    refused(write_copy("rel.o", image_size, EI_NIDENT, ET_REL), "ELF type 1, not a shared object");
    refused(write_copy("magic.so", image_size, 1, 'X'), "not an ELF file");
}

/* Whether a and b name the same file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

/* The C library is where the loader took it from, by whichever of the
 * cache or the standard folders this system uses. */
static void the_c_library_is_found(void **state)
{
    (void)state;
    char path[4096];
    unsetenv("LD_LIBRARY_PATH");
    const char *base = strrchr(library, '/') + 1;
    assert_int_equal(sb_lib_find(base, path, sizeof path), 0);
    if (!same_file(path, library))
        fail_msg("%s found at %s, mapped from %s", base, path, library);
    char why[256] = "";
    assert_int_equal(sb_lib_check(base, why, sizeof why), 0);
    assert_int_equal(sb_lib_find("libsimtbench-no-such-library.so.9", path, sizeof path), -1);
    assert_int_equal(sb_lib_check("libsimtbench-no-such-library.so.9", why, sizeof why), 0);
}

/* LD_LIBRARY_PATH comes first; a copy of the other class there is passed
 * over as the loader passes it over, a truncated one is what the loader
 * would map, and is refused by name. */
static void the_library_path_comes_first(void **state)
{
    (void)state;
    char a[4200], b[4200], list[8500], path[4300], why[8700] = "", want[4300];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    assert_int_equal(mkdir(a, 0700), 0);
    assert_int_equal(mkdir(b, 0700), 0);
    int bits = (int)sizeof(void *) * 8;
    write_copy("a/libsbtest.so.1", image_size, EI_CLASS, bits == 64 ? ELFCLASS32 : ELFCLASS64);
    write_copy("b/libsbtest.so.1", image_size, (size_t)-1, 0);
    snprintf(list, sizeof list, "%s:%s", a, b);
    setenv("LD_LIBRARY_PATH", list, 1);
    assert_int_equal(sb_lib_find("libsbtest.so.1", path, sizeof path), 0);
    snprintf(want, sizeof want, "%s/libsbtest.so.1", b);
    assert_string_equal(path, want);
    assert_int_equal(sb_lib_check("libsbtest.so.1", why, sizeof why), 0);

    write_copy("a/libsbtest.so.1", image_size / 2, (size_t)-1, 0);
    assert_int_equal(sb_lib_check("libsbtest.so.1", why, sizeof why), -1);
    snprintf(want, sizeof want, "damaged: %s/libsbtest.so.1 (truncated: %zu bytes, segments need",
             a, image_size / 2);
    if (strncmp(why, want, strlen(want)) != 0)
        fail_msg("\"%s\", expected \"%s...\"", why, want);
    /* A name with a slash is the file itself. */
    assert_true(snprintf(want, sizeof want, "%s/libsbtest.so.1", a) < (int)sizeof want);
    assert_int_equal(sb_lib_check(want, why, sizeof why), -1);
    unsetenv("LD_LIBRARY_PATH");
}

/* A FIFO under a library's name is refused by its kind, never opened (an
 * open would wait for a writer), and a FIFO first on the library path is
 * what the loader would open: refused by name before dlopen. */
static void a_fifo_is_refused_without_blocking(void **state)
{
    (void)state;
    char f[4200], list[4200], why[8700] = "", want[4400];
    snprintf(f, sizeof f, "%s/fifo", dir);
    assert_int_equal(mkdir(f, 0700), 0);
    snprintf(list, sizeof list, "%s", f);
    snprintf(f, sizeof f, "%s/fifo/libsbfifo.so.1", dir);
    assert_int_equal(mkfifo(f, 0600), 0);
    refused(f, "not a regular file: a FIFO");
    assert_int_equal(sb_elf_is_foreign(f), 0);
    setenv("LD_LIBRARY_PATH", list, 1);
    assert_int_equal(sb_lib_check("libsbfifo.so.1", why, sizeof why), -1);
    snprintf(want, sizeof want, "damaged: %s (not a regular file: a FIFO)", f);
    assert_string_equal(why, want);
    unsetenv("LD_LIBRARY_PATH");
}

int main(void)
{
    if (!find_mapped_library(library, sizeof library) || load_image(library))
        return sb_test_skip_all("no shared object found in /proc/self/maps");
    if (!mkdtemp(dir))
        return sb_test_skip_all("cannot make a temporary folder");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_real_library_passes),
        cmocka_unit_test(a_truncated_copy_fails),
        cmocka_unit_test(empty_and_text_files_fail),
        cmocka_unit_test(other_class_and_machine_fail),
        cmocka_unit_test(an_object_that_is_not_a_library_fails),
        cmocka_unit_test(the_c_library_is_found),
        cmocka_unit_test(the_library_path_comes_first),
        cmocka_unit_test(a_fifo_is_refused_without_blocking),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", dir);
    free(image);
    return failed;
}
