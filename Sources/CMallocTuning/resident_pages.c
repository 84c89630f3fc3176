#define _GNU_SOURCE
#include "CMallocTuning.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int main_program_bias(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    *(ElfW(Addr) *)data = info->dlpi_addr;
    return 1;  // the first object is the program itself
}

static int read_exactly(int fd, void *buffer, size_t length, off_t offset) {
    return pread(fd, buffer, length, offset) == (ssize_t)length ? 0 : -1;
}

int trackd_program_rodata(uintptr_t *start, size_t *size) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int result = -1;
    ElfW(Ehdr) header;
    ElfW(Shdr) *sections = NULL;
    char *names = NULL;
    if (read_exactly(fd, &header, sizeof header, 0) != 0 || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_shentsize != sizeof(ElfW(Shdr)) || header.e_shnum == 0 || header.e_shstrndx >= header.e_shnum)
        goto done;
    sections = calloc(header.e_shnum, sizeof(ElfW(Shdr)));
    if (sections == NULL ||
        read_exactly(fd, sections, header.e_shnum * sizeof(ElfW(Shdr)), (off_t)header.e_shoff) != 0)
        goto done;
    ElfW(Shdr) *table = &sections[header.e_shstrndx];
    if (table->sh_size == 0 || table->sh_size > (1 << 20)) goto done;
    names = calloc(1, table->sh_size + 1);
    if (names == NULL || read_exactly(fd, names, table->sh_size, (off_t)table->sh_offset) != 0) goto done;
    ElfW(Addr) bias = 0;
    dl_iterate_phdr(main_program_bias, &bias);
    for (int index = 0; index < header.e_shnum; index++) {
        ElfW(Shdr) *section = &sections[index];
        if (section->sh_name < table->sh_size && strcmp(names + section->sh_name, ".rodata") == 0 &&
            section->sh_type == SHT_PROGBITS && (section->sh_flags & SHF_ALLOC) && section->sh_size > 0) {
            *start = (uintptr_t)(bias + section->sh_addr);
            *size = (size_t)section->sh_size;
            result = 0;
            break;
        }
    }
done:
    free(names);
    free(sections);
    close(fd);
    return result;
}

long trackd_release_unchanged_pages(uintptr_t start, size_t length) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (start + page - 1) & ~(page - 1), last = (start + length) & ~(page - 1);
    if (last <= first) return 0;
    size_t pages = (last - first) / page;
    uint64_t *entries = calloc(pages, sizeof(uint64_t));
    int pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    long released = -1;
    if (entries == NULL || pagemap < 0 ||
        read_exactly(pagemap, entries, pages * sizeof(uint64_t), (off_t)(first / page * sizeof(uint64_t))) != 0)
        goto done;
    released = 0;
    size_t run = 0;
    for (size_t index = 0; index <= pages; index++) {
        // /proc/self/pagemap, bit 63: present; 62: swapped; 61: a page of the file (or shared). A present page that
        // is not the file's is the process's own copy (relocated at start, say): it stays, and so does a swapped one.
        int keep = index == pages || (entries[index] >> 62 & 1) ||
                   ((entries[index] >> 63 & 1) && !(entries[index] >> 61 & 1));
        if (keep) {
            if (index > run && madvise((void *)(first + run * page), (index - run) * page, MADV_DONTNEED) == 0)
                released += (long)((index - run) * page);
            run = index + 1;
        }
    }
done:
    if (pagemap >= 0) close(pagemap);
    free(entries);
    return released;
}
