/* A large saved run written with printf, for the test that reads and
 * renders it and for the benchmark that times that: two devices, each
 * result measured on both, twelve experiments, variants at two sizes, PTX
 * on one in four. */
#ifndef SB_TEST_LARGE_RUN_H
#define SB_TEST_LARGE_RUN_H

/* Write a saved run of n results to path; 0, or -1 (errno set). */
int sb_write_large_run(const char *path, long n);

#endif
