# SB_CHECK_CUDA
# -------------
# The CUDA backend needs nothing at build time but dlopen: cuda/cuda_api.h
# declares the part of the driver API, NVRTC and cuBLAS it uses, and the
# module opens libcuda, NVRTC and cuBLAS at run time.  So it is built by
# default (a plain --with-cuda says the same) and left out only with
# --without-cuda.  Nothing is linked and no rpath is set, so a
# distribution can build the module with no CUDA toolkit installed.
#
# --with-cuda=DIR, a CUDA toolkit, is used for two things only:
#  - the declaration test (tests/backends/test_cuda_api) compiles
#    cuda_api.h against DIR/include's cuda.h, nvrtc.h and cublas_v2.h;
#  - the module looks for NVRTC and cuBLAS in DIR's library folder
#    (SB_CUDA_LIBDIR) when the loader's path has none.
# Without DIR the test is built where the compiler finds those headers
# itself or in /usr/local/cuda/include, NVIDIA's installer's default;
# only the test's compile line ever sees that folder.
AC_DEFUN([SB_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [build the CUDA backend (default: yes; it needs no CUDA toolkit).  DIR, a toolkit,
       gives the headers for the declaration test and a last folder to look in for
       NVRTC and cuBLAS at run time])],
    [], [with_cuda=yes])
  sb_build_cuda=no
  sb_cuda_note=""
  sb_cuda_libdir=""
  sb_cuda_headers=no
  CUDA_TEST_CPPFLAGS=""
  AS_CASE([$with_cuda],
    [no], [sb_cuda_note="(--without-cuda)"],
    [yes], [sb_build_cuda=yes],
    [sb_build_cuda=yes
     AS_IF([test -d "$with_cuda"], [],
       [AC_MSG_ERROR([--with-cuda=$with_cuda: no such folder (give the CUDA toolkit's, or a plain --with-cuda)])])
     for sb_d in "$with_cuda/lib64" "$with_cuda/lib" "$with_cuda/targets/$host_cpu-linux/lib"; do
       AS_IF([test -d "$sb_d"], [sb_cuda_libdir=$sb_d; break])
     done
     AS_IF([test -n "$sb_cuda_libdir"],
       [AC_DEFINE_UNQUOTED([SB_CUDA_LIBDIR], ["$sb_cuda_libdir"],
         [CUDA toolkit library folder, where NVRTC and cuBLAS are looked for last])])])
  AS_IF([test $sb_build_cuda = yes], [
    AS_CASE([$with_cuda],
      [yes], [sb_cuda_includes="default /usr/local/cuda/include"],
      [sb_cuda_includes="$with_cuda/include"])
    AC_MSG_CHECKING([for cuda.h, nvrtc.h and cublas_v2.h, for the declaration test])
    sb_save_CPPFLAGS=$CPPFLAGS
    for sb_inc in $sb_cuda_includes; do
      AS_IF([test "x$sb_inc" = xdefault], [sb_flags=""], [sb_flags="-I$sb_inc"])
      CPPFLAGS="$sb_save_CPPFLAGS $sb_flags"
      AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <cuda.h>
#include <nvrtc.h>
#include <cublas_v2.h>]], [[]])],
        [sb_cuda_headers=yes; CUDA_TEST_CPPFLAGS=$sb_flags; break])
    done
    CPPFLAGS=$sb_save_CPPFLAGS
    AS_IF([test $sb_cuda_headers = yes],
      [AC_MSG_RESULT([yes${CUDA_TEST_CPPFLAGS:+ ($CUDA_TEST_CPPFLAGS)}])],
      [AC_MSG_RESULT([no (the declaration test is not built)])])
  ])
  dnl CUPTI's headers, for its declaration test: beside cuda.h in a
  dnl toolkit of CUDA 12.6 or later, under extras/CUPTI in older layouts.
  sb_cupti_headers=no
  CUPTI_TEST_CPPFLAGS=""
  AS_IF([test $sb_cuda_headers = yes], [
    AC_MSG_CHECKING([for cupti_range_profiler.h, for the CUPTI declaration test])
    sb_save_CPPFLAGS=$CPPFLAGS
    for sb_inc in $sb_cuda_includes; do
      AS_IF([test "x$sb_inc" = xdefault], [sb_incs="default"],
        [sb_incs="$sb_inc $sb_inc/../extras/CUPTI/include"])
      for sb_i in $sb_incs; do
        AS_IF([test "x$sb_i" = xdefault], [sb_flags="$CUDA_TEST_CPPFLAGS"],
          [sb_flags="$CUDA_TEST_CPPFLAGS -I$sb_i"])
        CPPFLAGS="$sb_save_CPPFLAGS $sb_flags"
        AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <cupti_range_profiler.h>
#include <cupti_target.h>]], [[]])],
          [sb_cupti_headers=yes; CUPTI_TEST_CPPFLAGS=$sb_flags; break 2])
      done
    done
    CPPFLAGS=$sb_save_CPPFLAGS
    AS_IF([test $sb_cupti_headers = yes], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no (CUPTI 12.6 or later has it; the CUPTI declaration test is not built)])])
  ])
  AC_SUBST([CUDA_TEST_CPPFLAGS])
  AC_SUBST([CUPTI_TEST_CPPFLAGS])
  AM_CONDITIONAL([BUILD_CUDA], [test $sb_build_cuda = yes])
  AM_CONDITIONAL([HAVE_CUDA_HEADERS], [test $sb_cuda_headers = yes])
  AM_CONDITIONAL([HAVE_CUPTI_HEADERS], [test $sb_cupti_headers = yes])
])
