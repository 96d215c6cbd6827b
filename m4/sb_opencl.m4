# SB_CHECK_OPENCL
# ---------------
# --with-opencl[=DIR]: detect by default (CL/cl.h and libOpenCL, the ICD
# loader), fail when asked for explicitly and not found, leave it out with
# --without-opencl.
AC_DEFUN([SB_CHECK_OPENCL], [
  AC_ARG_WITH([opencl],
    [AS_HELP_STRING([--with-opencl@<:@=DIR@:>@],
      [build the OpenCL backend, headers and loader under DIR (default: detect)])],
    [], [with_opencl=check])
  sb_build_opencl=no
  sb_opencl_note=""
  OPENCL_CPPFLAGS=""
  OPENCL_LDFLAGS=""
  OPENCL_LIBS=""
  AS_IF([test "x$with_opencl" != xno], [
    AS_CASE([$with_opencl],
      [yes|check], [],
      [OPENCL_CPPFLAGS="-I$with_opencl/include"
       for sb_d in "$with_opencl/lib64" "$with_opencl/lib"; do
         AS_IF([test -d "$sb_d"], [OPENCL_LDFLAGS="-L$sb_d"; break])
       done])
    sb_save_CPPFLAGS=$CPPFLAGS; sb_save_LDFLAGS=$LDFLAGS; sb_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $OPENCL_CPPFLAGS"
    LDFLAGS="$LDFLAGS $OPENCL_LDFLAGS"
    sb_ocl_ok=yes
    AC_CHECK_HEADER([CL/cl.h], [], [sb_ocl_ok=no; sb_opencl_note="(CL/cl.h not found; Debian: opencl-c-headers)"],
      [#define CL_TARGET_OPENCL_VERSION 120])
    AS_IF([test $sb_ocl_ok = yes],
      [AC_CHECK_LIB([OpenCL], [clGetPlatformIDs], [OPENCL_LIBS="-lOpenCL"],
        [sb_ocl_ok=no; sb_opencl_note="(libOpenCL not found; Debian: ocl-icd-opencl-dev)"])])
    CPPFLAGS=$sb_save_CPPFLAGS; LDFLAGS=$sb_save_LDFLAGS; LIBS=$sb_save_LIBS
    AS_IF([test $sb_ocl_ok = yes], [sb_build_opencl=yes],
      [AS_IF([test "x$with_opencl" != xcheck],
        [AC_MSG_ERROR([--with-opencl was given but OpenCL is unusable $sb_opencl_note])])])
  ])
  AC_SUBST([OPENCL_CPPFLAGS])
  AC_SUBST([OPENCL_LDFLAGS])
  AC_SUBST([OPENCL_LIBS])
  AM_CONDITIONAL([BUILD_OPENCL], [test $sb_build_opencl = yes])
])

# SB_CHECK_CLBLAST
# ----------------
# CLBlast's transpose gives the OpenCL backend's vendor reference row.
# The module opens libclblast.so.1 at run time (opencl/clblast_api.h
# declares what it uses), so nothing is checked or linked here and the row
# appears wherever CLBlast is installed, with no rebuild.  Where
# clblast_c.h is found, the declaration test (tests/backends/
# test_clblast_api) checks opencl/clblast_api.h against it.
# --with-clblast and --without-clblast are still accepted, for build
# scripts that pass them, and change nothing.
AC_DEFUN([SB_CHECK_CLBLAST], [
  AC_ARG_WITH([clblast],
    [AS_HELP_STRING([--with-clblast], [accepted for older build scripts: CLBlast is opened at run time where installed])],
    [AC_MSG_NOTICE([--with(out)-clblast changes nothing: the OpenCL backend opens CLBlast at run time where it is installed])])
  sb_clblast_headers=no
  AS_IF([test $sb_build_opencl = yes], [
    sb_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$CPPFLAGS $OPENCL_CPPFLAGS"
    AC_CHECK_HEADER([clblast_c.h], [sb_clblast_headers=yes], [],
      [#define CL_TARGET_OPENCL_VERSION 120])
    CPPFLAGS=$sb_save_CPPFLAGS
  ])
  AM_CONDITIONAL([HAVE_CLBLAST_HEADERS], [test $sb_clblast_headers = yes])
])
