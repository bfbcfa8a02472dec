! The marble ball (R 10 mm, 11 g) dropped into the fixed cup (inner R 50 mm) with Hertz contact,
! in the caller's own time loop (velocity Verlet, 1 us steps), contact detection by surfdb's C API
! on the lookup tables. Prints the impact as "name value" lines, the same numbers as
! samples/embedding/c/ball_in_cup.c.
! Build: gfortran surfdb.f90 ball_in_cup.f90 -L PREFIX/lib -lsurfdb_runtime -o ball_in_cup
! Usage: ball_in_cup BALL.sdb CUP.sdb   (samples/slider_crank_cup_ball/tables after prepare.sh)
program ball_in_cup
  use surfdb
  implicit none
  real(c_double), parameter :: dt = 1d-6            ! s
  real(c_double), parameter :: stiffness = 5.0181d9 ! N/m^1.5, paper 000 Table 3
  real(c_double), parameter :: mass = 0.011d0       ! kg
  real(c_double), parameter :: gravity(3) = [0d0, 0d0, -9.81d0]
  real(c_double), parameter :: identity(9) = [1d0, 0d0, 0d0, 0d0, 1d0, 0d0, 0d0, 0d0, 1d0]
  character(len=4096) :: ball_path, cup_path
  type(c_ptr) :: ball, cup, contact
  type(surfdb_mount) :: mount
  type(surfdb_body_state) :: b, c
  type(surfdb_contact_result) :: r
  real(c_double) :: force(3), t, f, speed
  real(c_double) :: first_contact, last_contact, impact_speed, max_indentation
  integer :: step

  if (command_argument_count() /= 2) then
    write (0, '(a)') 'usage: ball_in_cup BALL.sdb CUP.sdb'
    stop 2, quiet=.true.
  end if
  call get_command_argument(1, ball_path)
  call get_command_argument(2, cup_path)
  call surfdb_check(surfdb_open(trim(ball_path) // c_null_char, ball))
  call surfdb_check(surfdb_open(trim(cup_path) // c_null_char, cup))
  mount = surfdb_mount([0d0, 0d0, 0d0], identity)  ! tables in body axes
  call surfdb_check(surfdb_contact_create(ball, mount, cup, mount, contact))

  ! The cup's body frame sits at its sphere's centre; the ball starts 5 mm above the bottom.
  b = surfdb_body_state([0d0, 0d0, -0.035d0], identity, [0d0, 0d0, 0d0], [0d0, 0d0, 0d0])
  c = surfdb_body_state([0d0, 0d0, 0d0], identity, [0d0, 0d0, 0d0], [0d0, 0d0, 0d0])
  force = 0
  first_contact = -1
  last_contact = 0
  impact_speed = 0
  max_indentation = 0
  do step = 1, 100000
    t = step * dt
    b%velocity = b%velocity + 0.5d0 * dt * (force / mass + gravity)
    b%r = b%r + dt * b%velocity
    call surfdb_check(surfdb_contact_evaluate(contact, b, c, r))
    if (r%status > 1) write (0, '(a, i0, a, es12.5)') 'ball_in_cup: detection status ', r%status, ' at t = ', t
    f = 0
    if (r%status == 1) f = stiffness * r%indentation**1.5d0  ! N, along the cup's normal
    force = f * r%normal
    b%velocity = b%velocity + 0.5d0 * dt * (force / mass + gravity)
    speed = sqrt(b%velocity(1)**2 + b%velocity(2)**2 + b%velocity(3)**2)
    if (r%status == 1) then
      if (first_contact < 0) then
        first_contact = t
        impact_speed = speed
      end if
      last_contact = t
      max_indentation = max(max_indentation, r%indentation)
    else if (first_contact >= 0) then  ! the ball has left the cup's surface: the rebound
      write (*, '(a, es20.12)') 'first_contact_time ', first_contact
      write (*, '(a, es20.12)') 'impact_speed ', impact_speed
      write (*, '(a, es20.12)') 'max_indentation ', max_indentation
      write (*, '(a, es20.12)') 'contact_duration ', last_contact - first_contact
      write (*, '(a, es20.12)') 'rebound_speed ', speed
      exit
    end if
  end do
  call surfdb_contact_destroy(contact)
  call surfdb_close(ball)
  call surfdb_close(cup)
  if (step > 100000) then
    write (0, '(a)') 'ball_in_cup: no rebound within 0.1 s'
    stop 1, quiet=.true.
  end if
end program
