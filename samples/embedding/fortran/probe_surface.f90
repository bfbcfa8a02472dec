! Queries a surface database from Fortran through surfdb's C API (ISO_C_BINDING).
! Build: gfortran probe_surface.f90 -L PREFIX/lib -lsurfdb_runtime -o probe_surface
! Usage: probe_surface FILE.sdb U V
module surfdb
  use, intrinsic :: iso_c_binding
  implicit none
  type, bind(c) :: surfdb_point
    real(c_double) :: u, v
    real(c_double) :: p(3), n(3), t(3), b(3)
    real(c_double) :: dp_du(3), dp_dv(3), dn_du(3), dn_dv(3)
    real(c_double) :: k1, k2
    integer(c_int) :: status, degenerate
  end type
  interface
    integer(c_int) function surfdb_open(path, db) bind(c)
      import :: c_int, c_char, c_ptr
      character(kind=c_char), dimension(*), intent(in) :: path
      type(c_ptr), intent(out) :: db
    end function
    subroutine surfdb_close(db) bind(c)
      import :: c_ptr
      type(c_ptr), value :: db
    end subroutine
    integer(c_int) function surfdb_binding_create(db, wu, wv, binding) bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: db
      integer(c_int), value :: wu, wv
      type(c_ptr), intent(out) :: binding
    end function
    subroutine surfdb_binding_destroy(binding) bind(c)
      import :: c_ptr
      type(c_ptr), value :: binding
    end subroutine
    integer(c_int) function surfdb_query(binding, u, v, point) bind(c)
      import :: c_int, c_ptr, c_double, surfdb_point
      type(c_ptr), value :: binding
      real(c_double), value :: u, v
      type(surfdb_point), intent(out) :: point
    end function
  end interface
end module

program probe_surface
  use surfdb
  implicit none
  character(len=4096) :: path, arg
  type(c_ptr) :: db, binding
  type(surfdb_point) :: q
  real(c_double) :: u, v
  call get_command_argument(1, path)
  call get_command_argument(2, arg)
  read (arg, *) u
  call get_command_argument(3, arg)
  read (arg, *) v
  if (surfdb_open(trim(path) // c_null_char, db) /= 0) stop 1
  if (surfdb_binding_create(db, 5_c_int, 5_c_int, binding) /= 0) stop 1
  if (surfdb_query(binding, u, v, q) /= 0) stop 1
  write (*, '(3es25.17)') q%p
  write (*, '(3es25.17)') q%n
  write (*, '(i0)') q%status
  call surfdb_binding_destroy(binding)
  call surfdb_close(db)
end program
