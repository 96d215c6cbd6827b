# SB_CHECK_CUDA
# -------------
# --with-cuda[=DIR]: guess by default (build the backend when cuda.h, nvrtc.h
# and libnvrtc are found), fail when asked for explicitly and not found,
# leave it out with --without-cuda.  The driver library (libcuda) is not
# linked: the backend opens it at run time, so it builds and loads, and
# NVRTC works, on machines with no NVIDIA driver.
AC_DEFUN([SB_CHECK_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@],
      [build the CUDA backend, toolkit in DIR (default: detect, /usr/local/cuda)])],
    [], [with_cuda=check])
  sb_build_cuda=no
  sb_have_cublas=no
  sb_cuda_note=""
  CUDA_CPPFLAGS=""
  CUDA_LDFLAGS=""
  CUDA_LIBS=""
  AS_IF([test "x$with_cuda" != xno], [
    AS_CASE([$with_cuda],
      [yes|check], [sb_cuda_dir=/usr/local/cuda],
      [sb_cuda_dir=$with_cuda])
    AS_IF([test -d "$sb_cuda_dir/include"], [CUDA_CPPFLAGS="-I$sb_cuda_dir/include"])
    for sb_d in "$sb_cuda_dir/lib64" "$sb_cuda_dir/lib" "$sb_cuda_dir/targets/x86_64-linux/lib"; do
      AS_IF([test -d "$sb_d"], [CUDA_LDFLAGS="-L$sb_d -Wl,-rpath,$sb_d"; break])
    done
    sb_save_CPPFLAGS=$CPPFLAGS; sb_save_LDFLAGS=$LDFLAGS; sb_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"
    LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
    sb_cuda_ok=yes
    AC_CHECK_HEADER([cuda.h], [], [sb_cuda_ok=no; sb_cuda_note="(cuda.h not found in $sb_cuda_dir/include)"])
    AS_IF([test $sb_cuda_ok = yes],
      [AC_CHECK_HEADER([nvrtc.h], [], [sb_cuda_ok=no; sb_cuda_note="(nvrtc.h not found)"])])
    AS_IF([test $sb_cuda_ok = yes],
      [AC_CHECK_LIB([nvrtc], [nvrtcCreateProgram], [CUDA_LIBS="-lnvrtc"],
        [sb_cuda_ok=no; sb_cuda_note="(libnvrtc not found)"])])
    AS_IF([test $sb_cuda_ok = yes],
      [AC_CHECK_HEADER([cublas_v2.h],
        [AC_CHECK_LIB([cublas], [cublasCreate_v2], [sb_have_cublas=yes])])])
    CPPFLAGS=$sb_save_CPPFLAGS; LDFLAGS=$sb_save_LDFLAGS; LIBS=$sb_save_LIBS
    AS_IF([test $sb_cuda_ok = yes], [sb_build_cuda=yes],
      [AS_IF([test "x$with_cuda" != xcheck],
        [AC_MSG_ERROR([--with-cuda was given but the CUDA toolkit is unusable $sb_cuda_note; install it or pass --with-cuda=DIR])])])
  ])
  AS_IF([test $sb_have_cublas = yes],
    [AC_DEFINE([SB_HAVE_CUBLAS], [1], [cuBLAS is available for the reference rows])])
  AC_SUBST([CUDA_CPPFLAGS])
  AC_SUBST([CUDA_LDFLAGS])
  AC_SUBST([CUDA_LIBS])
  AM_CONDITIONAL([BUILD_CUDA], [test $sb_build_cuda = yes])
])
