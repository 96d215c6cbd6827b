/* The part of CLBlast's C API that the OpenCL backend uses, declared here
 * so that the module opens libclblast at run time (and the vendor row
 * appears wherever CLBlast is installed, with no rebuild) and builds
 * without CLBlast's headers.
 *
 * The naming rule of cuda/cuda_api.h: a type or function-pointer type is
 * CLBlast's name with "sb_" in front, a constant with "SB_".
 * tests/backends/test_clblast_api.c checks every entry of the lists below
 * against clblast_c.h where it is installed.  CLBlast's status codes are
 * an enum with negative values, int to a C compiler; its layout and
 * transpose enums have none, unsigned int. */
#ifndef SB_CLBLAST_API_H
#define SB_CLBLAST_API_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stddef.h>

typedef int sb_CLBlastStatusCode;
typedef unsigned int sb_CLBlastLayout;
typedef unsigned int sb_CLBlastTranspose;
#define SB_CLBLAST_TYPES(X) X(CLBlastStatusCode) X(CLBlastLayout) X(CLBlastTranspose)

/* X(name, value): every status code, for the names in messages. */
#define SB_CLBLAST_STATUS_CODES(X)            \
    X(CLBlastSuccess, 0)                      \
    X(CLBlastOpenCLCompilerNotAvailable, -3)  \
    X(CLBlastTempBufferAllocFailure, -4)      \
    X(CLBlastOpenCLOutOfResources, -5)        \
    X(CLBlastOpenCLOutOfHostMemory, -6)       \
    X(CLBlastOpenCLBuildProgramFailure, -11)  \
    X(CLBlastInvalidValue, -30)               \
    X(CLBlastInvalidCommandQueue, -36)        \
    X(CLBlastInvalidMemObject, -38)           \
    X(CLBlastInvalidBinary, -42)              \
    X(CLBlastInvalidBuildOptions, -43)        \
    X(CLBlastInvalidProgram, -44)             \
    X(CLBlastInvalidProgramExecutable, -45)   \
    X(CLBlastInvalidKernelName, -46)          \
    X(CLBlastInvalidKernelDefinition, -47)    \
    X(CLBlastInvalidKernel, -48)              \
    X(CLBlastInvalidArgIndex, -49)            \
    X(CLBlastInvalidArgValue, -50)            \
    X(CLBlastInvalidArgSize, -51)             \
    X(CLBlastInvalidKernelArgs, -52)          \
    X(CLBlastInvalidLocalNumDimensions, -53)  \
    X(CLBlastInvalidLocalThreadsTotal, -54)   \
    X(CLBlastInvalidLocalThreadsDim, -55)     \
    X(CLBlastInvalidGlobalOffset, -56)        \
    X(CLBlastInvalidEventWaitList, -57)       \
    X(CLBlastInvalidEvent, -58)               \
    X(CLBlastInvalidOperation, -59)           \
    X(CLBlastInvalidBufferSize, -61)          \
    X(CLBlastInvalidGlobalWorkSize, -63)      \
    X(CLBlastNotImplemented, -1024)           \
    X(CLBlastInvalidMatrixA, -1022)           \
    X(CLBlastInvalidMatrixB, -1021)           \
    X(CLBlastInvalidMatrixC, -1020)           \
    X(CLBlastInvalidVectorX, -1019)           \
    X(CLBlastInvalidVectorY, -1018)           \
    X(CLBlastInvalidDimension, -1017)         \
    X(CLBlastInvalidLeadDimA, -1016)          \
    X(CLBlastInvalidLeadDimB, -1015)          \
    X(CLBlastInvalidLeadDimC, -1014)          \
    X(CLBlastInvalidIncrementX, -1013)        \
    X(CLBlastInvalidIncrementY, -1012)        \
    X(CLBlastInsufficientMemoryA, -1011)      \
    X(CLBlastInsufficientMemoryB, -1010)      \
    X(CLBlastInsufficientMemoryC, -1009)      \
    X(CLBlastInsufficientMemoryX, -1008)      \
    X(CLBlastInsufficientMemoryY, -1007)      \
    X(CLBlastInsufficientMemoryTemp, -2050)   \
    X(CLBlastInvalidBatchCount, -2049)        \
    X(CLBlastInvalidOverrideKernel, -2048)    \
    X(CLBlastMissingOverrideParameter, -2047) \
    X(CLBlastInvalidLocalMemUsage, -2046)     \
    X(CLBlastNoHalfPrecision, -2045)          \
    X(CLBlastNoDoublePrecision, -2044)        \
    X(CLBlastInvalidVectorScalar, -2043)      \
    X(CLBlastInsufficientMemoryScalar, -2042) \
    X(CLBlastDatabaseError, -2041)            \
    X(CLBlastUnknownError, -2040)             \
    X(CLBlastUnexpectedError, -2039)

#define SB_CLBLAST_CONSTANTS(X)                                                                  \
    X(CLBlastLayoutRowMajor, 101)                                                                \
    X(CLBlastTransposeNo, 111)                                                                   \
    X(CLBlastTransposeYes, 112)

typedef sb_CLBlastStatusCode (*sb_CLBlastSomatcopy_fn)(
    sb_CLBlastLayout layout, sb_CLBlastTranspose a_transpose, size_t m, size_t n, float alpha,
    cl_mem a_buffer, size_t a_offset, size_t a_ld, cl_mem b_buffer, size_t b_offset,
    size_t b_ld, cl_command_queue *queue, cl_event *event);
typedef sb_CLBlastStatusCode (*sb_CLBlastSgemm_fn)(
    sb_CLBlastLayout layout, sb_CLBlastTranspose a_transpose, sb_CLBlastTranspose b_transpose,
    size_t m, size_t n, size_t k, float alpha, cl_mem a_buffer, size_t a_offset, size_t a_ld,
    cl_mem b_buffer, size_t b_offset, size_t b_ld, float beta, cl_mem c_buffer, size_t c_offset,
    size_t c_ld, cl_command_queue *queue, cl_event *event);
typedef sb_CLBlastStatusCode (*sb_CLBlastClearCache_fn)(void);

/* X(name): the entry points the backend opens, all in CLBlast 1.0 and
 * later, whose soname is libclblast.so.1. */
#define SB_CLBLAST_CALLS(X) X(CLBlastSomatcopy) X(CLBlastSgemm) X(CLBlastClearCache)
#define SB_CLBLAST_SONAME "libclblast.so.1"

#define SB_CLBLAST_API_ENUM(name, value) SB_##name = (value),
enum { SB_CLBLAST_STATUS_CODES(SB_CLBLAST_API_ENUM) SB_CLBLAST_CONSTANTS(SB_CLBLAST_API_ENUM) };
#undef SB_CLBLAST_API_ENUM

#endif
