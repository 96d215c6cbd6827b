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
# CLBlast's transpose as a reference row in the OpenCL backend; optional.
AC_DEFUN([SB_CHECK_CLBLAST], [
  AC_ARG_WITH([clblast],
    [AS_HELP_STRING([--without-clblast], [no CLBlast reference rows (default: detect)])],
    [], [with_clblast=check])
  sb_have_clblast=no
  CLBLAST_LIBS=""
  AS_IF([test "x$with_clblast" != xno && test $sb_build_opencl = yes], [
    sb_save_CPPFLAGS=$CPPFLAGS; sb_save_LDFLAGS=$LDFLAGS; sb_save_LIBS=$LIBS
    CPPFLAGS="$CPPFLAGS $OPENCL_CPPFLAGS"
    LDFLAGS="$LDFLAGS $OPENCL_LDFLAGS"
    AC_CHECK_HEADER([clblast_c.h],
      [AC_CHECK_LIB([clblast], [CLBlastSomatcopy], [sb_have_clblast=yes; CLBLAST_LIBS="-lclblast"], [], [$OPENCL_LIBS])],
      [], [#define CL_TARGET_OPENCL_VERSION 120])
    CPPFLAGS=$sb_save_CPPFLAGS; LDFLAGS=$sb_save_LDFLAGS; LIBS=$sb_save_LIBS
    AS_IF([test "x$with_clblast" = xyes && test $sb_have_clblast = no],
      [AC_MSG_ERROR([--with-clblast was given but CLBlast was not found (Debian: libclblast-dev)])])
  ])
  AS_IF([test $sb_have_clblast = yes],
    [AC_DEFINE([SB_HAVE_CLBLAST], [1], [CLBlast is available for the reference rows])])
  AC_SUBST([CLBLAST_LIBS])
  AM_CONDITIONAL([HAVE_CLBLAST], [test $sb_have_clblast = yes])
])
