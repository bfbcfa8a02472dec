! Queries a surface database from Fortran through surfdb's C API (ISO_C_BINDING).
! Build: gfortran surfdb.f90 probe_surface.f90 -L PREFIX/lib -lsurfdb_runtime -o probe_surface
! Usage: probe_surface FILE.sdb U V
program probe_surface
  use surfdb
  implicit none
  character(len=4096) :: path, arg
  type(c_ptr) :: db, binding
  type(surfdb_point) :: q
  type(surfdb_point_d1) :: d1
  real(c_double) :: u, v
  call get_command_argument(1, path)
  call get_command_argument(2, arg)
  read (arg, *) u
  call get_command_argument(3, arg)
  read (arg, *) v
  call surfdb_check(surfdb_open(trim(path) // c_null_char, db))
  call surfdb_check(surfdb_binding_create(db, 5_c_int, 5_c_int, binding))
  call surfdb_check(surfdb_query(binding, u, v, q))
  write (*, '(3es25.17)') q%p
  write (*, '(3es25.17)') q%n
  write (*, '(i0)') q%status
  call surfdb_prefetch(binding, u, v)  ! a hint only: the answers below are the same
  call surfdb_check(surfdb_query_d1(binding, u, v, d1))  ! the lighter answer: the same p and n
  write (*, '(3es25.17)') d1%p
  write (*, '(3es25.17)') d1%n
  call surfdb_binding_destroy(binding)
  call surfdb_close(db)
end program
