#define _GNU_SOURCE
#include "elf_check.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The headers of this process's own class. */
#if UINTPTR_MAX > 0xffffffffu
#define SB_ELFCLASS ELFCLASS64
typedef Elf64_Ehdr sb_ehdr;
typedef Elf64_Phdr sb_phdr;
typedef Elf64_Shdr sb_shdr;
#else
#define SB_ELFCLASS ELFCLASS32
typedef Elf32_Ehdr sb_ehdr;
typedef Elf32_Phdr sb_phdr;
typedef Elf32_Shdr sb_shdr;
#endif
#define SB_BITS ((int)sizeof(void *) * 8)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SB_ELFDATA ELFDATA2LSB
#else
#define SB_ELFDATA ELFDATA2MSB
#endif

/* The machine this build runs on; unnamed architectures skip the check. */
#if defined(__x86_64__)
#define SB_ELF_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define SB_ELF_MACHINE EM_AARCH64
#elif defined(__i386__)
#define SB_ELF_MACHINE EM_386
#elif defined(__arm__)
#define SB_ELF_MACHINE EM_ARM
#elif defined(__powerpc64__)
#define SB_ELF_MACHINE EM_PPC64
#elif defined(__powerpc__)
#define SB_ELF_MACHINE EM_PPC
#elif defined(__s390x__) || defined(__s390__)
#define SB_ELF_MACHINE EM_S390
#elif defined(__riscv)
#define SB_ELF_MACHINE EM_RISCV
#elif defined(__loongarch__) && defined(EM_LOONGARCH)
#define SB_ELF_MACHINE EM_LOONGARCH
#elif defined(__mips__)
#define SB_ELF_MACHINE EM_MIPS
#elif defined(__sparc__) && defined(__arch64__)
#define SB_ELF_MACHINE EM_SPARCV9
#endif

static int fail(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* 0 when all len bytes at off were read. */
static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t got = pread(fd, p, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        len -= (size_t)got;
        off += (uint64_t)got;
    }
    return 0;
}

static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_PPC64: return "PowerPC64";
    case EM_PPC: return "PowerPC";
    case EM_S390: return "s390";
    case EM_RISCV: return "RISC-V";
    case EM_MIPS: return "MIPS";
    default: return "another machine";
    }
}

/* The identification bytes: magic, class, byte order, version.  have is
 * how many of them the file holds. */
static int check_ident(const unsigned char *id, uint64_t have, char *why, size_t n)
{
    if (have < SELFMAG || memcmp(id, ELFMAG, SELFMAG) != 0)
        return fail(why, n, "not an ELF file");
    if (have < EI_NIDENT)
        return fail(why, n, "truncated: %llu bytes, the ELF header needs %zu",
                    (unsigned long long)have, sizeof(sb_ehdr));
    if (id[EI_CLASS] != SB_ELFCLASS)
        return fail(why, n, "ELF class %d, this program is %d-bit",
                    id[EI_CLASS] == ELFCLASS32 ? 32 : id[EI_CLASS] == ELFCLASS64 ? 64 : 0,
                    SB_BITS);
    if (id[EI_DATA] != SB_ELFDATA)
        return fail(why, n, "%s ELF file, this program is %s",
                    id[EI_DATA] == ELFDATA2MSB ? "big-endian" : "little-endian",
                    SB_ELFDATA == ELFDATA2MSB ? "big-endian" : "little-endian");
    if (id[EI_VERSION] != EV_CURRENT)
        return fail(why, n, "ELF version %d, not %d", id[EI_VERSION], EV_CURRENT);
    return 0;
}

/* The header's type, machine and table entry sizes. */
static int check_header(const sb_ehdr *h, char *why, size_t n)
{
    if (h->e_type != ET_DYN)
        return fail(why, n, "ELF type %u, not a shared object", (unsigned)h->e_type);
#ifdef SB_ELF_MACHINE
    if (h->e_machine != SB_ELF_MACHINE)
        return fail(why, n, "built for %s (ELF machine %u), this program for %s",
                    machine_name(h->e_machine), (unsigned)h->e_machine,
                    machine_name(SB_ELF_MACHINE));
#endif
    if (h->e_phnum == 0)
        return fail(why, n, "no program headers");
    if (h->e_phentsize != sizeof(sb_phdr))
        return fail(why, n, "program header entries of %u bytes, not %zu",
                    (unsigned)h->e_phentsize, sizeof(sb_phdr));
    if (h->e_shnum && h->e_shentsize != sizeof(sb_shdr))
        return fail(why, n, "section header entries of %u bytes, not %zu",
                    (unsigned)h->e_shentsize, sizeof(sb_shdr));
    return 0;
}

/* off + count entries of size bytes, saturated at 2^64 - 1. */
static uint64_t table_end(uint64_t off, uint64_t count, uint64_t size)
{
    if (count && size > (UINT64_MAX - off) / count)
        return UINT64_MAX;
    return off + count * size;
}

/* The counts past the header's 16 bits live in section header 0 (PN_XNUM,
 * a zero e_shnum with a table); 0, or -1 when that header is unreadable. */
static int real_counts(int fd, const sb_ehdr *h, uint64_t size, uint64_t *phnum,
                       uint64_t *shnum)
{
    *phnum = h->e_phnum;
    *shnum = h->e_shnum;
    if (h->e_phnum != PN_XNUM && (h->e_shnum || !h->e_shoff))
        return 0;
    sb_shdr s0;
    if (table_end(h->e_shoff, 1, sizeof s0) > size || read_at(fd, &s0, sizeof s0, h->e_shoff))
        return -1;
    if (h->e_phnum == PN_XNUM)
        *phnum = s0.sh_info;
    if (!h->e_shnum)
        *shnum = s0.sh_size;
    return 0;
}

/* Where the file image of the last loadable segment ends, in *need. */
static int loads_end(int fd, const sb_ehdr *h, uint64_t phnum, uint64_t *need, char *why,
                     size_t n)
{
    *need = 0;
    sb_phdr *ph = malloc(phnum * sizeof *ph);
    if (!ph)
        return fail(why, n, "out of memory reading %llu program headers",
                    (unsigned long long)phnum);
    int loads = 0, rc = 0;
    if (read_at(fd, ph, phnum * sizeof *ph, h->e_phoff))
        rc = fail(why, n, "program headers unreadable");
    for (uint64_t i = 0; rc == 0 && i < phnum; i++) {
        if (ph[i].p_type != PT_LOAD)
            continue;
        loads++;
        uint64_t off = ph[i].p_offset, len = ph[i].p_filesz;
        if (len > UINT64_MAX - off)
            rc = fail(why, n, "segment %llu ends past 2^64", (unsigned long long)i);
        else if (off + len > *need)
            *need = off + len;
    }
    free(ph);
    if (rc == 0 && loads == 0)
        rc = fail(why, n, "no loadable segment");
    return rc;
}

/* The checks that need more than the header: the tables and segments
 * lie inside the file's size bytes. */
static int check_extents(int fd, const sb_ehdr *h, uint64_t size, char *why, size_t n)
{
    uint64_t phnum, shnum, need;
    if (real_counts(fd, h, size, &phnum, &shnum))
        return fail(why, n, "truncated: %llu bytes, the section header table starts at %llu",
                    (unsigned long long)size, (unsigned long long)h->e_shoff);
    uint64_t ph_end = table_end(h->e_phoff, phnum, sizeof(sb_phdr));
    if (ph_end > size)
        return fail(why, n, "truncated: %llu bytes, program headers need %llu",
                    (unsigned long long)size, (unsigned long long)ph_end);
    if (loads_end(fd, h, phnum, &need, why, n))
        return -1;
    if (need > size)
        return fail(why, n, "truncated: %llu bytes, segments need %llu",
                    (unsigned long long)size, (unsigned long long)need);
    uint64_t sh_end = table_end(h->e_shoff, shnum, sizeof(sb_shdr));
    if (shnum && sh_end > size)
        return fail(why, n, "truncated: %llu bytes, the section header table needs %llu",
                    (unsigned long long)size, (unsigned long long)sh_end);
    return 0;
}

/* What a file that is not a regular one is, for the reason. */
static const char *kind_of(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a directory";
    return "of an unknown kind";
}

/* Opens a regular file for reading; its size in *size.  The kind is
 * looked at before the open, and the open does not wait: opening a FIFO
 * blocks until someone writes it, which would hang the program before
 * any check could refuse it. */
static int open_file(const char *path, uint64_t *size, char *why, size_t n)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(why, n, "cannot be read: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(why, n, "not a regular file: %s", kind_of(st.st_mode));
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return fail(why, n, "cannot be read: %s", strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return fail(why, n, "not a regular file");
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

int sb_elf_check(const char *path, char *why, size_t n)
{
    uint64_t size = 0;
    int fd = open_file(path, &size, why, n);
    if (fd < 0)
        return -1;
    sb_ehdr h;
    memset(&h, 0, sizeof h);
    int rc;
    if (size == 0)
        rc = fail(why, n, "empty file (0 bytes)");
    else if (read_at(fd, &h, size < sizeof h ? (size_t)size : sizeof h, 0))
        rc = fail(why, n, "cannot be read");
    else if ((rc = check_ident(h.e_ident, size, why, n)) == 0) {
        if (size < sizeof h)
            rc = fail(why, n, "truncated: %llu bytes, the ELF header needs %zu",
                      (unsigned long long)size, sizeof h);
        else if ((rc = check_header(&h, why, n)) == 0)
            rc = check_extents(fd, &h, size, why, n);
    }
    close(fd);
    return rc;
}

int sb_elf_is_foreign(const char *path)
{
    uint64_t size = 0;
    int fd = open_file(path, &size, NULL, 0);
    if (fd < 0)
        return 0;
    /* e_machine follows e_ident and e_type at the same place in both
       classes. */
    unsigned char head[EI_NIDENT + 4];
    int foreign = 0;
    if (size >= sizeof head && read_at(fd, head, sizeof head, 0) == 0 &&
        memcmp(head, ELFMAG, SELFMAG) == 0 && head[EI_DATA] == SB_ELFDATA) {
        uint16_t machine;
        memcpy(&machine, head + EI_NIDENT + 2, sizeof machine);
        foreign = head[EI_CLASS] != SB_ELFCLASS;
#ifdef SB_ELF_MACHINE
        foreign = foreign || machine != SB_ELF_MACHINE;
#else
        (void)machine;
#endif
    }
    close(fd);
    return foreign;
}
